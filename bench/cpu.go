package main

import (
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
}

type cpuSnap struct {
	wall       time.Time
	self       time.Duration
	server, db time.Duration
	known      bool
}

// cpuMeter samples getrusage for the bench and /proc for the server (the
// campus process) and its descendants (the embedded Postgres).
type cpuMeter struct {
	pid  int
	rows []cpuRow
}

func newCPUMeter(pid int) *cpuMeter { return &cpuMeter{pid: pid} }

// setPID follows a restarted server.
func (m *cpuMeter) setPID(pid int) { m.pid = pid }

func (m *cpuMeter) snap() cpuSnap {
	s := cpuSnap{wall: time.Now(), self: selfCPU()}
	if m.pid > 0 {
		if own, _, err := procCPU(m.pid); err == nil {
			s.server, s.db, s.known = own, descendantsCPU(m.pid), true
		}
	}
	return s
}

// phase starts timing; the returned func records the row.
func (m *cpuMeter) phase(name string) func() {
	a := m.snap()
	return func() {
		z := m.snap()
		wall := z.wall.Sub(a.wall).Seconds()
		if wall <= 0 {
			return
		}
		r := cpuRow{Phase: name, WallS: wall, Bench: (z.self - a.self).Seconds() / wall, Server: -1, Postgres: -1}
		if a.known && z.known {
			r.Server = (z.server - a.server).Seconds() / wall
			r.Postgres = (z.db - a.db).Seconds() / wall
		}
		m.rows = append(m.rows, r)
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
