package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// The admins' queries (the console and `campus admin`): every account,
// every group, and the figures each node reports about itself.

// AdminUser is an account as the admins see it: its capabilities and its
// suspension in force, if any.
type AdminUser struct {
	User `bun:",extend"`
	// Caps is the capabilities held, comma-separated in name order.
	Caps             string     `bun:"caps,scanonly"`
	SuspendedUntil   *time.Time `bun:"suspended_until,scanonly"`
	Suspended        bool       `bun:"suspended,scanonly"`
	SuspensionReason string     `bun:"suspension_reason,scanonly"`
	OpenReportsAbout int        `bun:"open_reports,scanonly"`
	PostsCount       int        `bun:"posts_count,scanonly"`
}

// Capabilities lists what the account holds besides being a member.
func (u *AdminUser) Capabilities() []string {
	if u.Caps == "" {
		return []string{}
	}
	return strings.Split(u.Caps, ",")
}

// adminUsers selects accounts with what the admins see of each.
func adminUsers(db bun.IDB, out any) *bun.SelectQuery {
	return db.NewSelect().Model(out).ColumnExpr("u.*").
		ColumnExpr(`coalesce((SELECT string_agg(c.capability, ',' ORDER BY c.capability)
			FROM account_capabilities c WHERE c.user_id = u.id), '') AS caps`).
		ColumnExpr("s.until_at AS suspended_until, s.user_id IS NOT NULL AS suspended, coalesce(s.reason, '') AS suspension_reason").
		ColumnExpr(`(SELECT count(*) FROM reports r WHERE r.item_author_id = u.id AND r.status = 'open') AS open_reports`).
		ColumnExpr(`(SELECT count(*) FROM posts p WHERE p.user_id = u.id AND p.removed_at IS NULL AND p.repost_of IS NULL) AS posts_count`).
		Join(`LEFT JOIN account_suspensions AS s ON s.user_id = u.id AND (s.until_at IS NULL OR s.until_at > now())`)
}

// likePattern is q as a case-insensitive substring pattern, its wildcards
// taken literally.
func likePattern(q string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(q) + "%"
}

// AdminUsers answers a keyset page (newest account first) of the accounts
// whose name or e-mail address contains q (every account for "").
func AdminUsers(ctx context.Context, db bun.IDB, q string, after Keyset, limit int) ([]AdminUser, error) {
	var out []AdminUser
	s := adminUsers(db, &out)
	if q != "" {
		p := likePattern(q)
		s = s.Where("(u.name ILIKE ? OR u.email ILIKE ?)", p, p)
	}
	if !after.IsZero() {
		s = s.Where("(u.created_at, u.id) < (?, ?)", after.At, after.ID)
	}
	if err := s.OrderExpr("u.created_at DESC, u.id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: admin users: %w", err)
	}
	return out, nil
}

// AdminUserByID loads one account as the admins see it; domain.ErrNotFound
// when there is none.
func AdminUserByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*AdminUser, error) {
	var out AdminUser
	if err := adminUsers(db, &out).Where("u.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "persistence: admin user")
	}
	return &out, nil
}

// AdminGroups answers a keyset page (newest first) of every group, secret
// ones included, whose name or handle contains q.
func AdminGroups(ctx context.Context, db bun.IDB, q string, after Keyset, limit int) ([]Group, error) {
	var out []Group
	s := db.NewSelect().Model(&out)
	if q != "" {
		p := likePattern(q)
		s = s.Where("(g.name ILIKE ? OR g.handle ILIKE ?)", p, p)
	}
	if !after.IsZero() {
		s = s.Where("(g.created_at, g.id) < (?, ?)", after.At, after.ID)
	}
	if err := s.OrderExpr("g.created_at DESC, g.id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("persistence: admin groups: %w", err)
	}
	return out, nil
}

// NodeStatus is the row a running node keeps up to date about itself (its
// heartbeat), so that any node can show every node's figures.
type NodeStatus struct {
	bun.BaseModel `bun:"table:node_status,alias:ns"`

	Node      string          `bun:"node,pk"`
	Version   string          `bun:"version,notnull"`
	StartedAt time.Time       `bun:"started_at,notnull"`
	Figures   json.RawMessage `bun:"figures,type:jsonb,notnull"`
	UpdatedAt time.Time       `bun:"updated_at,notnull"`
}

// UpsertNodeStatus writes node's heartbeat, stamped with the database's
// clock (the nodes' clocks may disagree).
func UpsertNodeStatus(ctx context.Context, db bun.IDB, s *NodeStatus) error {
	_, err := db.ExecContext(ctx, `INSERT INTO node_status (node, version, started_at, figures, updated_at)
		VALUES (?, ?, ?, ?, now()) ON CONFLICT (node) DO UPDATE
		SET version = EXCLUDED.version, started_at = EXCLUDED.started_at, figures = EXCLUDED.figures, updated_at = now()`,
		s.Node, s.Version, s.StartedAt, string(s.Figures))
	if err != nil {
		return fmt.Errorf("persistence: node status: %w", err)
	}
	return nil
}

// DeleteNodeStatus removes node's row (a clean stop), and the rows of
// nodes silent for longer than forget (killed ones).
func DeleteNodeStatus(ctx context.Context, db bun.IDB, node string, forget time.Duration) error {
	_, err := db.ExecContext(ctx, `DELETE FROM node_status WHERE node = ? OR updated_at < now() - ?::interval`,
		node, fmt.Sprintf("%d milliseconds", forget.Milliseconds()))
	if err != nil {
		return fmt.Errorf("persistence: delete node status: %w", err)
	}
	return nil
}

// NodeStatusRow is a node's heartbeat with its age by the database's clock.
type NodeStatusRow struct {
	NodeStatus `bun:",extend"`
	// AgeMs is how long ago the row was written.
	AgeMs int64 `bun:"age_ms,scanonly"`
}

// NodeStatuses lists every node's heartbeat, by node address.
func NodeStatuses(ctx context.Context, db bun.IDB) ([]NodeStatusRow, error) {
	var out []NodeStatusRow
	err := db.NewSelect().Model(&out).ColumnExpr("ns.*").
		ColumnExpr("(extract(epoch FROM now() - ns.updated_at) * 1000)::bigint AS age_ms").
		OrderExpr("ns.node").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("persistence: node statuses: %w", err)
	}
	return out, nil
}

// DatabaseFigures are the figures of the shared database: the same from
// every node.
type DatabaseFigures struct {
	// Connections are the open connections to this database, by state
	// (active, idle, idle in transaction…), every client included.
	Connections map[string]int `json:"connections"`
	// MaxConnections is the server's max_connections.
	MaxConnections int `json:"maxConnections"`
	// MailOutbox and PushOutbox are the messages waiting for delivery.
	MailOutbox int `json:"mailOutbox"`
	PushOutbox int `json:"pushOutbox"`
	// SearchOutboxMax is the highest search outbox id: a node's index lag
	// is this minus what its index has applied.
	SearchOutboxMax int64 `json:"searchOutboxMax"`
}

// ReadDatabaseFigures reads the shared database's figures in one round trip.
func ReadDatabaseFigures(ctx context.Context, db bun.IDB) (DatabaseFigures, error) {
	var row struct {
		Conns     string `bun:"conns"`
		MaxConns  int    `bun:"max_conns"`
		Mail      int    `bun:"mail"`
		Push      int    `bun:"push"`
		SearchMax int64  `bun:"search_max"`
	}
	err := db.NewRaw(`SELECT
		coalesce((SELECT json_object_agg(st, n) FROM (SELECT coalesce(state, 'unknown') AS st, count(*) AS n
			FROM pg_stat_activity WHERE datname = current_database() GROUP BY 1) c), '{}')::text AS conns,
		current_setting('max_connections')::int AS max_conns,
		(SELECT count(*) FROM mail_outbox) AS mail,
		(SELECT count(*) FROM push_outbox) AS push,
		coalesce((SELECT max(id) FROM search_outbox), 0) AS search_max`).Scan(ctx, &row)
	if err != nil {
		return DatabaseFigures{}, fmt.Errorf("persistence: database figures: %w", err)
	}
	f := DatabaseFigures{Connections: map[string]int{}, MaxConnections: row.MaxConns, MailOutbox: row.Mail,
		PushOutbox: row.Push, SearchOutboxMax: row.SearchMax}
	if err := json.Unmarshal([]byte(row.Conns), &f.Connections); err != nil {
		return DatabaseFigures{}, fmt.Errorf("persistence: database figures: connections: %w", err)
	}
	return f, nil
}

// SearchOutboxAgeAfter answers how old the oldest search outbox entry above
// applied is (0 when there is none): how far behind an index that has
// applied everything up to applied is, in time.
func SearchOutboxAgeAfter(ctx context.Context, db bun.IDB, applied int64) (time.Duration, error) {
	var ms sql.NullInt64
	err := db.NewRaw(`SELECT (extract(epoch FROM now() - created_at) * 1000)::bigint FROM search_outbox
		WHERE id > ? ORDER BY id LIMIT 1`, applied).Scan(ctx, &ms)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("persistence: search outbox age: %w", err)
	}
	return time.Duration(max(ms.Int64, 0)) * time.Millisecond, nil
}
