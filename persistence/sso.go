package persistence

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Identity is a row of user_identities: a sign-in at a university's
// identity provider that belongs to an account.
type Identity struct {
	bun.BaseModel `bun:"table:user_identities,alias:ui"`

	Provider   string    `bun:"provider,pk"`
	Subject    string    `bun:"subject,pk"`
	ID         uuid.UUID `bun:"id,type:uuid,nullzero,default:gen_random_uuid()"`
	UserID     uuid.UUID `bun:"user_id,type:uuid"`
	Email      string    `bun:"email,notnull"`
	LinkedAt   time.Time `bun:"linked_at,nullzero,notnull,default:current_timestamp"`
	LastUsedAt time.Time `bun:"last_used_at,nullzero,notnull,default:current_timestamp"`
}

// SSOFlow is a sign-in under way (sso_flows).
type SSOFlow struct {
	bun.BaseModel `bun:"table:sso_flows"`

	StateHash   []byte    `bun:"state_hash,pk"`
	Provider    string    `bun:"provider,notnull"`
	BindingHash []byte    `bun:"binding_hash,notnull"`
	Nonce       string    `bun:"nonce,notnull"`
	Verifier    string    `bun:"verifier,notnull"`
	RequestID   string    `bun:"request_id,notnull"`
	ReturnTo    string    `bun:"return_to,notnull"`
	LinkUserID  uuid.UUID `bun:"link_user_id,type:uuid,nullzero"`
	ExpiresAt   time.Time `bun:"expires_at,notnull"`
}

// SSOTicket is a finished sign-in waiting to be redeemed, or an identity
// waiting for proof (sso_tickets).
type SSOTicket struct {
	bun.BaseModel `bun:"table:sso_tickets"`

	TicketHash  []byte          `bun:"ticket_hash,pk"`
	Kind        string          `bun:"kind,notnull"`
	BindingHash []byte          `bun:"binding_hash,notnull"`
	UserID      uuid.UUID       `bun:"user_id,type:uuid"`
	Identity    json.RawMessage `bun:"identity,type:jsonb,notnull"`
	ReturnTo    string          `bun:"return_to,notnull"`
	ExpiresAt   time.Time       `bun:"expires_at,notnull"`
}

// InsertSSOFlow stores a flow, and now and then sweeps expired flows and
// tickets and replay entries (they are useless once expired; the sweep is
// an indexed range delete).
func InsertSSOFlow(ctx context.Context, db bun.IDB, f *SSOFlow, sweep bool) error {
	if sweep {
		for _, table := range []string{"sso_flows", "sso_tickets", "sso_replay"} {
			if _, err := db.ExecContext(ctx, "DELETE FROM "+table+" WHERE expires_at < now() - interval '1 minute'"); err != nil {
				return fmt.Errorf("persistence: sweep %s: %w", table, err)
			}
		}
	}
	if _, err := db.NewInsert().Model(f).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert sso flow: %w", err)
	}
	return nil
}

// TakeSSOFlow deletes and returns the unexpired flow of stateHash for
// provider: a state is good once, on whichever node it arrives.
func TakeSSOFlow(ctx context.Context, db bun.IDB, stateHash []byte, provider string) (*SSOFlow, error) {
	f := new(SSOFlow)
	err := db.NewDelete().Model(f).Where("state_hash = ?", stateHash).Where("provider = ?", provider).
		Where("expires_at > now()").Returning("*").Scan(ctx)
	if err != nil {
		return nil, notFound(err, "persistence: take sso flow")
	}
	return f, nil
}

// InsertSSOTicket stores a ticket.
func InsertSSOTicket(ctx context.Context, db bun.IDB, t *SSOTicket) error {
	if _, err := db.NewInsert().Model(t).Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert sso ticket: %w", err)
	}
	return nil
}

// SSOTicketByHash reads an unexpired ticket of kind without using it.
func SSOTicketByHash(ctx context.Context, db bun.IDB, hash []byte, kind string) (*SSOTicket, error) {
	t := new(SSOTicket)
	err := db.NewSelect().Model(t).Where("ticket_hash = ?", hash).Where("kind = ?", kind).
		Where("expires_at > now()").Scan(ctx)
	if err != nil {
		return nil, notFound(err, "persistence: sso ticket")
	}
	return t, nil
}

// TakeSSOTicket deletes and returns the unexpired ticket of kind.
func TakeSSOTicket(ctx context.Context, db bun.IDB, hash []byte, kind string) (*SSOTicket, error) {
	t := new(SSOTicket)
	err := db.NewDelete().Model(t).Where("ticket_hash = ?", hash).Where("kind = ?", kind).
		Where("expires_at > now()").Returning("*").Scan(ctx)
	if err != nil {
		return nil, notFound(err, "persistence: take sso ticket")
	}
	return t, nil
}

// RememberAssertion records a SAML assertion id until expires; false when
// it was seen before (a replay).
func RememberAssertion(ctx context.Context, db bun.IDB, id string, expires time.Time) (bool, error) {
	res, err := db.ExecContext(ctx,
		"INSERT INTO sso_replay (assertion_id, expires_at) VALUES (?, ?) ON CONFLICT (assertion_id) DO NOTHING", id, expires)
	if err != nil {
		return false, fmt.Errorf("persistence: remember assertion: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// IdentityBySubject is the identity (provider, subject), marked used now.
func IdentityBySubject(ctx context.Context, db bun.IDB, provider, subject string) (*Identity, error) {
	i := new(Identity)
	err := db.NewUpdate().Model(i).Set("last_used_at = now()").
		Where("provider = ? AND subject = ?", provider, subject).Returning("*").Scan(ctx)
	if err != nil {
		return nil, notFound(err, "persistence: identity")
	}
	return i, nil
}

// InsertIdentity links an identity to its account.
func InsertIdentity(ctx context.Context, db bun.IDB, i *Identity) error {
	if _, err := db.NewInsert().Model(i).Returning("*").Exec(ctx); err != nil {
		return fmt.Errorf("persistence: insert identity: %w", err)
	}
	return nil
}

// IdentitiesOf lists an account's identities, oldest link first.
func IdentitiesOf(ctx context.Context, db bun.IDB, userID uuid.UUID) ([]Identity, error) {
	var out []Identity
	if err := db.NewSelect().Model(&out).Where("user_id = ?", userID).Order("linked_at", "provider").Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: identities: %w", err)
	}
	return out, nil
}

// DeleteIdentity removes the account's identity id; false when the account
// has none by that id.
func DeleteIdentity(ctx context.Context, db bun.IDB, userID, id uuid.UUID) (bool, error) {
	res, err := db.NewDelete().Model((*Identity)(nil)).Where("user_id = ? AND id = ?", userID, id).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("persistence: delete identity: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
