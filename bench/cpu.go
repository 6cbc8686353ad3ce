package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is USER_HZ, the unit of /proc/<pid>/stat times (100 on Linux).
const clockTick = 10 * time.Millisecond

// cpuRow is the CPU each party used during one timed phase, in cores
// (CPU seconds per wall second): the load generator must not be the
// bottleneck, and on a 2-core machine the three share the same cores.
type cpuRow struct {
	Phase    string  `json:"phase"`
	WallS    float64 `json:"wallSeconds"`
	Bench    float64 `json:"benchCores"`
	Server   float64 `json:"serverCores"`   // -1: unknown (--url without --server-pid)
	Postgres float64 `json:"postgresCores"` // the server's child processes; -1 unknown
	// Transactions per second Postgres committed in the bench's database
	// (pg_stat_database.xact_commit; a backend reports with up to a
	// second's delay) and transaction ids it assigned per second (exact:
	// the transactions that wrote); -1 unknown.
	TxPerS  float64 `json:"transactionsPerSecond"`
	XidPerS float64 `json:"writeTransactionsPerSecond"`
	// Websocket frames per second the bench's viewers received.
	FramesPerS float64 `json:"framesPerSecond"`
}

type cpuSnap struct {
	wall         time.Time
	self         time.Duration
	server, db   time.Duration
	known        bool
	commits, xid int64
	txKnown      bool
	frames       int64
}

// cpuMeter samples getrusage for the bench and /proc for the server (the
// campus process) and its descendants (the embedded Postgres).
type cpuMeter struct {
	pid  int
	db   *sql.DB // the server's database, for its transaction counters; nil: none
	rows []cpuRow
}

func newCPUMeter(pid int) *cpuMeter { return &cpuMeter{pid: pid} }

// setPID follows a restarted server.
func (m *cpuMeter) setPID(pid int) { m.pid = pid }

// setDB sets the database whose transactions a phase counts.
func (m *cpuMeter) setDB(db *sql.DB) { m.db = db }

// transactions reads the database's commit counter and its next
// transaction id.
func (m *cpuMeter) transactions() (commits, xid int64, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = m.db.QueryRowContext(ctx, `SELECT
		(SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),
		pg_snapshot_xmax(pg_current_snapshot())::text::int8`).Scan(&commits, &xid)
	return commits, xid, err
}

func (m *cpuMeter) snap() cpuSnap {
	s := cpuSnap{wall: time.Now(), self: selfCPU(), frames: framesReceived.Load()}
	if m.db != nil {
		var err error
		s.commits, s.xid, err = m.transactions()
		s.txKnown = err == nil
	}
	if m.pid > 0 {
		if own, _, err := procCPU(m.pid); err == nil {
			s.server, s.db, s.known = own, descendantsCPU(m.pid), true
		}
	}
	return s
}

// phase starts timing; the returned func records the row.
func (m *cpuMeter) phase(name string) func() {
	done := m.measure(name)
	return func() {
		if r, ok := done(); ok {
			m.rows = append(m.rows, r)
		}
	}
}

// measure starts timing like phase without recording: the returned func
// answers the row (ok false when no wall time passed), for a figure per
// unit of work or for another meter's table.
func (m *cpuMeter) measure(name string) func() (cpuRow, bool) {
	a := m.snap()
	return func() (cpuRow, bool) {
		z := m.snap()
		wall := z.wall.Sub(a.wall).Seconds()
		if wall <= 0 {
			return cpuRow{}, false
		}
		r := cpuRow{Phase: name, WallS: wall, Bench: (z.self - a.self).Seconds() / wall, Server: -1, Postgres: -1,
			TxPerS: -1, XidPerS: -1, FramesPerS: float64(z.frames-a.frames) / wall}
		if a.txKnown && z.txKnown {
			r.TxPerS = float64(z.commits-a.commits) / wall
			r.XidPerS = float64(z.xid-a.xid) / wall
		}
		if a.known && z.known {
			r.Server = (z.server - a.server).Seconds() / wall
			r.Postgres = (z.db - a.db).Seconds() / wall
		}
		return r, true
	}
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU reads utime+stime (own) and cutime+cstime (reaped children) of pid.
func procCPU(pid int) (own, children time.Duration, err error) {
	f, _, err := procStat(pid)
	if err != nil {
		return 0, 0, err
	}
	// f[0] is field 3 (state): utime is field 14 → f[11].
	n := func(i int) time.Duration {
		v, _ := strconv.ParseInt(f[i], 10, 64)
		return time.Duration(v) * clockTick
	}
	return n(11) + n(12), n(13) + n(14), nil
}

// procStat returns the fields of /proc/<pid>/stat after the command name
// (which may hold spaces) and the parent pid.
func procStat(pid int) ([]string, int, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, 0, fmt.Errorf("malformed /proc/%d/stat", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 15 {
		return nil, 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ppid, _ := strconv.Atoi(f[1])
	return f, ppid, nil
}

// descendantsCPU is the CPU of every live descendant of root plus what they
// reaped: Postgres backends that exited are in the postmaster's cutime.
func descendantsCPU(root int) time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := map[int]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, ppid, err := procStat(pid); err == nil {
			parent[pid] = ppid
		}
	}
	var sum time.Duration
	for pid := range parent {
		under := false
		for p, hops := parent[pid], 0; p > 1 && hops < 16; p, hops = parent[p], hops+1 {
			if p == root {
				under = true
				break
			}
		}
		if !under {
			continue
		}
		if own, ch, err := procCPU(pid); err == nil {
			sum += own + ch
		}
	}
	return sum
}
