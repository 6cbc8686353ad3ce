package app

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
)

// The operator's command line, `campus admin …`: what an admin does in the
// console, by e-mail address, with no account (the audit log names the
// operator). It works on the database the running nodes use; every effect
// that other nodes must see goes through the database (the token
// revocation's NOTIFY closes a suspended account's sockets on every node).

// MsgNoAccountWithEmail answers an e-mail address no account has.
const MsgNoAccountWithEmail = "No account has that e-mail address"

// operatorTarget is the account with email.
func operatorTarget(ctx context.Context, db bun.IDB, email string) (*persistence.User, error) {
	u, err := persistence.UserByEmail(ctx, db, strings.TrimSpace(email))
	if isNotFound(err) {
		return nil, domain.NotFound(MsgNoAccountWithEmail)
	}
	return u, err
}

// OperatorResult is what a command did, to print.
type OperatorResult struct {
	UserID  uuid.UUID
	Email   string
	Message string
}

// OperatorSetRole grants (on) or revokes role (moderator or admin) of the
// account with email: how the first admin is made.
func OperatorSetRole(ctx context.Context, db *bun.DB, email, role string, on bool) (OperatorResult, error) {
	u, err := operatorTarget(ctx, db, email)
	if err != nil {
		return OperatorResult{}, err
	}
	changed, err := setCapability(ctx, db, uuid.Nil, u.ID, role, on, "")
	if err != nil {
		return OperatorResult{}, err
	}
	return OperatorResult{UserID: u.ID, Email: u.Email, Message: roleMessage(role, on, changed)}, nil
}

// OperatorSuspend suspends the account with email for days (0: for good).
// Its sockets close on every running node at once; with notice set, the
// account is told by e-mail (sent by a running node's mail sender).
func OperatorSuspend(ctx context.Context, db *bun.DB, email string, days int, reason string, notice *SuspensionNotice) (OperatorResult, error) {
	u, err := operatorTarget(ctx, db, email)
	if err != nil {
		return OperatorResult{}, err
	}
	if err := suspendAccount(ctx, db, uuid.Nil, u.ID, domain.ModerationInput{Reason: reason, Days: days}, time.Now(), notice); err != nil {
		return OperatorResult{}, err
	}
	msg := "Suspended for good"
	if days > 0 {
		msg = "Suspended for " + plural(days, "day")
	}
	return OperatorResult{UserID: u.ID, Email: u.Email, Message: msg}, nil
}

// OperatorUnsuspend lifts the suspension of the account with email.
func OperatorUnsuspend(ctx context.Context, db *bun.DB, email, reason string) (OperatorResult, error) {
	u, err := operatorTarget(ctx, db, email)
	if err != nil {
		return OperatorResult{}, err
	}
	if err := unsuspendAccount(ctx, db, uuid.Nil, u.ID, domain.ModerationInput{Reason: reason}); err != nil {
		return OperatorResult{}, err
	}
	return OperatorResult{UserID: u.ID, Email: u.Email, Message: "Suspension lifted"}, nil
}

// OperatorUsers lists the accounts whose name or e-mail address contains q
// (all for ""), newest first, a page of at most limit; cursor continues a
// listing.
func OperatorUsers(ctx context.Context, db bun.IDB, q string, limit int, cursor string) (AdminUsersResult, error) {
	q, err := adminQuery(q)
	if err != nil {
		return AdminUsersResult{}, err
	}
	return adminUsers(ctx, db, q, limit, cursor)
}

func plural(n int, unit string) string {
	s := strconv.Itoa(n) + " " + unit
	if n != 1 {
		s += "s"
	}
	return s
}
