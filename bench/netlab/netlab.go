// Package netlab builds a small private network out of Linux network
// namespaces for fault scenarios that loopback cannot show: on loopback a
// dead peer refuses at once, on a real network it times out.
//
// A Lab is a "switch" namespace holding a bridge, one namespace per host
// with its own address on that bridge, and a link from the caller's own
// namespace so it can reach every host (as a load balancer and an operator
// would). Processes run in a host with Host.Command (`ip netns exec`).
// Faults are made the way a network makes them:
//
//   - Cut drops every packet between hosts, in both directions, at the
//     receiving end (iptables DROP in INPUT): senders see timeouts, never
//     a refusal or a local error;
//   - Degrade adds latency and loss between hosts: sch_netem when the kernel
//     has it, else an NFQUEUE rule whose packets a user-space delayer holds
//     for the delay (still per packet, in the kernel's path) and iptables'
//     statistic match for the loss.
//
// Everything needs root; Check says why a machine cannot run a lab.
package netlab

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrUnavailable marks a machine that cannot build a lab (not root, no
// `ip`, no network namespaces, no iptables); the error says which.
var ErrUnavailable = errors.New("netlab: network namespaces unavailable")

// prefix starts every namespace a lab creates: campus-lab-<pid>-…, so a
// later lab can remove what a killed process left.
const prefix = "campus-lab-"

// Lab is one private network.
type Lab struct {
	id     string // <pid>-<subnet octet>
	octet  int    // the lab is 10.231.<octet>.0/24
	sw     string // the switch namespace
	rootIf string // the caller's end of its link to the switch
	// ownRoot: rootIf is ours (its creation succeeded), so Close removes it.
	ownRoot bool
	next    int // the next host's last address byte

	mu    sync.Mutex
	hosts []*Host
	undo  []func() error // faults in force, healed by Close
}

// Host is one namespace of the lab with its own address.
type Host struct {
	Name string // as given to AddHost
	NS   string // the namespace's name
	IP   string // its address on the lab's bridge
	lab  *Lab
	ifc  string // the switch's end of its link
}

// Check reports whether this machine can build a lab, and why not
// (wrapping ErrUnavailable).
func Check() error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("%w: needs root (network namespaces, veth pairs and iptables rules)", ErrUnavailable)
	}
	for _, bin := range []string{"ip", "iptables", "nsenter"} {
		if _, err := exec.LookPath(bin); err != nil {
			return fmt.Errorf("%w: no %s on PATH", ErrUnavailable, bin)
		}
	}
	name := fmt.Sprintf("%scheck-%d", prefix, os.Getpid())
	if out, err := run("ip", "netns", "add", name); err != nil {
		return fmt.Errorf("%w: ip netns add: %s", ErrUnavailable, out)
	}
	defer run("ip", "netns", "del", name) //nolint:errcheck // best effort
	if out, err := run("ip", "netns", "exec", name, "iptables", "-w", "-A", "INPUT", "-s", "10.0.0.1",
		"-m", "statistic", "--mode", "random", "--probability", "0.5", "-j", "DROP"); err != nil {
		return fmt.Errorf("%w: iptables in a namespace: %s", ErrUnavailable, out)
	}
	return nil
}

// New creates the switch and the caller's link to it, after removing what
// labs of processes that no longer run left behind.
func New() (*Lab, error) {
	if err := Check(); err != nil {
		return nil, err
	}
	sweep()
	// Another lab being built at the same moment (a parallel test
	// process) may take the same subnet: its link's name then exists and
	// the next free one is tried.
	var lastErr error
	var tried []int
	for range 5 {
		octet, err := freeOctet(tried)
		if err != nil {
			return nil, err
		}
		tried = append(tried, octet)
		l, err := build(octet)
		if err == nil {
			return l, nil
		}
		lastErr = err
		if !strings.Contains(err.Error(), "File exists") && !strings.Contains(err.Error(), "already") {
			break
		}
	}
	return nil, lastErr
}

// build makes the switch and the caller's link for 10.231.octet.0/24.
func build(octet int) (*Lab, error) {
	l := &Lab{id: fmt.Sprintf("%d-%d", os.Getpid(), octet), octet: octet, next: 2}
	l.sw = prefix + l.id + "-sw"
	l.rootIf = fmt.Sprintf("cl%dr", octet)
	steps := [][]string{
		{"ip", "netns", "add", l.sw},
		{"ip", "-n", l.sw, "link", "set", "lo", "up"},
		{"ip", "-n", l.sw, "link", "add", "br0", "type", "bridge"},
		{"ip", "-n", l.sw, "link", "set", "br0", "up"},
		{"ip", "link", "add", l.rootIf, "type", "veth", "peer", "name", l.rootIf + "b"},
		{"ip", "link", "set", l.rootIf + "b", "netns", l.sw},
		{"ip", "-n", l.sw, "link", "set", l.rootIf + "b", "master", "br0", "up"},
		{"ip", "addr", "add", l.addr(1) + "/24", "dev", l.rootIf},
		{"ip", "link", "set", l.rootIf, "up"},
	}
	for i, s := range steps {
		if out, err := run(s[0], s[1:]...); err != nil {
			l.Close()
			return nil, fmt.Errorf("netlab: %s: %s", strings.Join(s, " "), out)
		}
		if i == 4 {
			l.ownRoot = true
		}
	}
	return l, nil
}

func (l *Lab) addr(b int) string { return fmt.Sprintf("10.231.%d.%d", l.octet, b) }

// RootIP is the caller's own address on the lab's bridge: what the hosts
// see a connection from the caller come from.
func (l *Lab) RootIP() string { return l.addr(1) }

// Subnet is the lab's network in CIDR notation.
func (l *Lab) Subnet() string { return fmt.Sprintf("10.231.%d.0/24", l.octet) }

// Namespaces names every namespace of the lab, the switch's last.
func (l *Lab) Namespaces() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var names []string
	for _, h := range l.hosts {
		names = append(names, h.NS)
	}
	return append(names, l.sw)
}

// AddHost creates a namespace with an address on the bridge.
func (l *Lab) AddHost(name string) (*Host, error) {
	l.mu.Lock()
	k := l.next
	l.next++
	l.mu.Unlock()
	h := &Host{Name: name, NS: prefix + l.id + "-" + name, IP: l.addr(k), lab: l, ifc: fmt.Sprintf("cl%ds%d", l.octet, k)}
	hostIf := fmt.Sprintf("cl%dh%d", l.octet, k)
	steps := [][]string{
		{"ip", "netns", "add", h.NS},
		{"ip", "-n", h.NS, "link", "set", "lo", "up"},
		{"ip", "link", "add", hostIf, "type", "veth", "peer", "name", h.ifc},
		{"ip", "link", "set", h.ifc, "netns", l.sw},
		{"ip", "-n", l.sw, "link", "set", h.ifc, "master", "br0", "up"},
		{"ip", "link", "set", hostIf, "netns", h.NS},
		{"ip", "-n", h.NS, "link", "set", hostIf, "name", "eth0"},
		{"ip", "-n", h.NS, "addr", "add", h.IP + "/24", "dev", "eth0"},
		{"ip", "-n", h.NS, "link", "set", "eth0", "up"},
	}
	l.mu.Lock()
	l.hosts = append(l.hosts, h)
	l.mu.Unlock()
	for _, s := range steps {
		if out, err := run(s[0], s[1:]...); err != nil {
			return nil, fmt.Errorf("netlab: %s: %s", strings.Join(s, " "), out)
		}
	}
	return h, nil
}

// Command runs name in h's namespace (`ip netns exec`, which execs it:
// the process's pid is the Cmd's).
func (h *Host) Command(name string, arg ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", h.NS, name}, arg...)...)
}

// path is the namespace's file, for setns.
func (h *Host) path() string { return filepath.Join("/run/netns", h.NS) }

// iptables runs iptables in h's namespace.
func (h *Host) iptables(args ...string) error {
	if out, err := run("ip", append([]string{"netns", "exec", h.NS, "iptables", "-w"}, args...)...); err != nil {
		return fmt.Errorf("netlab: iptables %s in %s: %s", strings.Join(args, " "), h.Name, out)
	}
	return nil
}

// rules adds iptables rules (each an argument list without -A/-D and its
// chain, chain first) to the hosts and answers the function that deletes
// them again.
type rule struct {
	h     *Host
	chain string
	spec  []string
}

func (l *Lab) apply(rules []rule) (undo func() error, err error) {
	var done []rule
	undo = func() error {
		var errs []error
		for i := len(done) - 1; i >= 0; i-- {
			r := done[i]
			errs = append(errs, r.h.iptables(append([]string{"-D", r.chain}, r.spec...)...))
		}
		done = nil
		return errors.Join(errs...)
	}
	for _, r := range rules {
		if err := r.h.iptables(append([]string{"-I", r.chain, "1"}, r.spec...)...); err != nil {
			return nil, errors.Join(err, undo())
		}
		done = append(done, r)
	}
	return undo, nil
}

// Cut drops every packet between a and each of others, both ways, where
// it arrives. heal undoes it.
func (l *Lab) Cut(a *Host, others ...*Host) (heal func() error, err error) {
	var rules []rule
	for _, o := range others {
		rules = append(rules,
			rule{a, "INPUT", []string{"-s", o.IP, "-j", "DROP"}},
			rule{o, "INPUT", []string{"-s", a.IP, "-j", "DROP"}})
	}
	undo, err := l.apply(rules)
	if err != nil {
		return nil, err
	}
	return l.track(undo), nil
}

// track keeps undo for Close and answers a heal that runs it once.
func (l *Lab) track(undo func() error) func() error {
	var once sync.Once
	var err error
	heal := func() error {
		once.Do(func() { err = undo() })
		return err
	}
	l.mu.Lock()
	l.undo = append(l.undo, heal)
	l.mu.Unlock()
	return heal
}

// Degrade adds delay to every packet each host in hosts sends to another
// of them (so a round trip takes twice it) and drops the fraction loss of
// them, each way. method says how: "netem" or "nfqueue" (see the package
// doc). heal undoes it.
func (l *Lab) Degrade(hosts []*Host, delay time.Duration, loss float64) (method string, heal func() error, err error) {
	undo, err := l.netem(hosts, delay, loss)
	if err == nil {
		return "netem", l.track(undo), nil
	}
	if !errors.Is(err, errNoNetem) {
		return "", nil, err
	}
	undo, err = l.nfqueue(hosts, delay, loss)
	if err != nil {
		return "", nil, fmt.Errorf("%w: the kernel has no sch_netem, and NFQUEUE failed: %w", ErrUnavailable, err)
	}
	return "nfqueue", l.track(undo), nil
}

// errNoNetem: the kernel has no sch_netem (the module is not built or
// cannot be loaded).
var errNoNetem = errors.New("netlab: the kernel has no sch_netem")

// HasNetem reports whether the kernel accepts a netem qdisc, trying one in
// a scratch namespace.
func HasNetem() bool {
	name := fmt.Sprintf("%snetem-%d", prefix, os.Getpid())
	if _, err := run("ip", "netns", "add", name); err != nil {
		return false
	}
	defer run("ip", "netns", "del", name) //nolint:errcheck // best effort
	_, err := run("ip", "netns", "exec", name, "tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms")
	return err == nil
}

// netem gives each host an htb root whose second class, for packets to the
// other hosts (u32 filters on their addresses), runs netem.
func (l *Lab) netem(hosts []*Host, delay time.Duration, loss float64) (func() error, error) {
	if !HasNetem() {
		return nil, errNoNetem
	}
	var done []*Host
	undo := func() error {
		var errs []error
		for _, h := range done {
			if out, err := run("ip", "netns", "exec", h.NS, "tc", "qdisc", "del", "dev", "eth0", "root"); err != nil {
				errs = append(errs, fmt.Errorf("netlab: tc qdisc del in %s: %s", h.Name, out))
			}
		}
		return errors.Join(errs...)
	}
	for _, h := range hosts {
		done = append(done, h)
		tc := func(args ...string) error {
			if out, err := run("ip", append([]string{"netns", "exec", h.NS, "tc"}, args...)...); err != nil {
				return fmt.Errorf("netlab: tc %s in %s: %s", strings.Join(args, " "), h.Name, out)
			}
			return nil
		}
		steps := [][]string{
			{"qdisc", "add", "dev", "eth0", "root", "handle", "1:", "htb", "default", "10"},
			{"class", "add", "dev", "eth0", "parent", "1:", "classid", "1:10", "htb", "rate", "10gbit"},
			{"class", "add", "dev", "eth0", "parent", "1:", "classid", "1:20", "htb", "rate", "10gbit"},
			{"qdisc", "add", "dev", "eth0", "parent", "1:20", "handle", "20:", "netem",
				"delay", fmt.Sprintf("%dms", delay.Milliseconds()), "loss", fmt.Sprintf("%g%%", loss*100)},
		}
		for _, o := range hosts {
			if o != h {
				steps = append(steps, []string{"filter", "add", "dev", "eth0", "parent", "1:", "protocol", "ip", "prio", "1",
					"u32", "match", "ip", "dst", o.IP + "/32", "flowid", "1:20"})
			}
		}
		for _, s := range steps {
			if err := tc(s...); err != nil {
				return nil, errors.Join(err, undo())
			}
		}
	}
	return undo, nil
}

// nfqueue sends each host's packets to the others through a delayer (an
// NFQUEUE rule in OUTPUT; --queue-bypass lets them through should the
// delayer be gone) and drops the fraction loss of what each receives from
// them (statistic match in INPUT).
func (l *Lab) nfqueue(hosts []*Host, delay time.Duration, loss float64) (func() error, error) {
	var delayers []*delayer
	var rules []rule
	for _, h := range hosts {
		d, err := startDelayer(h.path(), 0, delay)
		if err != nil {
			for _, d := range delayers {
				d.Close()
			}
			return nil, err
		}
		delayers = append(delayers, d)
		for _, o := range hosts {
			if o == h {
				continue
			}
			rules = append(rules, rule{h, "OUTPUT", []string{"-d", o.IP, "-j", "NFQUEUE", "--queue-num", "0", "--queue-bypass"}})
			if loss > 0 {
				rules = append(rules, rule{h, "INPUT", []string{"-s", o.IP, "-m", "statistic", "--mode", "random",
					"--probability", strconv.FormatFloat(loss, 'f', -1, 64), "-j", "DROP"}})
			}
		}
	}
	undoRules, err := l.apply(rules)
	closeAll := func() error {
		var errs []error
		for _, d := range delayers {
			errs = append(errs, d.Close())
		}
		return errors.Join(errs...)
	}
	if err != nil {
		return nil, errors.Join(err, closeAll())
	}
	return func() error {
		// Rules first: the delayers let what they hold go, then unbind.
		return errors.Join(undoRules(), closeAll())
	}, nil
}

// Close heals every fault still in force, ends every process left in the
// lab's namespaces (the caller's own, started with Command) and deletes
// the namespaces; the links go with them.
func (l *Lab) Close() error {
	names := l.Namespaces()
	l.mu.Lock()
	undo := l.undo
	l.undo = nil
	l.mu.Unlock()
	var errs []error
	for i := len(undo) - 1; i >= 0; i-- {
		errs = append(errs, undo[i]())
	}
	for _, ns := range names {
		killIn(ns)
		if out, err := run("ip", "netns", "del", ns); err != nil && !strings.Contains(out, "No such file") {
			errs = append(errs, fmt.Errorf("netlab: ip netns del %s: %s", ns, out))
		}
	}
	// Normally gone with its peer in the switch namespace.
	if l.ownRoot {
		_, _ = run("ip", "link", "del", l.rootIf)
	}
	return errors.Join(errs...)
}

// killIn kills every process still in namespace ns: the lab's own
// children, which the caller failed to stop.
func killIn(ns string) {
	out, err := run("ip", "netns", "pids", ns)
	if err != nil {
		return
	}
	for _, f := range strings.Fields(out) {
		if pid, err := strconv.Atoi(f); err == nil && pid != os.Getpid() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	for i := 0; i < 50; i++ {
		if out, _ := run("ip", "netns", "pids", ns); strings.TrimSpace(out) == "" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sweep deletes the namespaces of labs whose process is gone (killed
// before its Close), with whatever still runs in them.
func sweep() {
	ents, err := os.ReadDir("/run/netns")
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || syscall.Kill(pid, 0) == nil {
			continue
		}
		killIn(e.Name())
		_, _ = run("ip", "netns", "del", e.Name())
	}
}

// freeOctet picks 10.231.X.0/24 with no address in our namespace yet
// (another lab, or a real network) and not in tried, starting from our pid.
func freeOctet(tried []int) (int, error) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return 0, fmt.Errorf("netlab: %w", err)
	}
	used := map[int]bool{}
	for _, o := range tried {
		used[o] = true
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok {
			if ip4 := ipn.IP.To4(); ip4 != nil && ip4[0] == 10 && ip4[1] == 231 {
				used[int(ip4[2])] = true
			}
		}
	}
	start := os.Getpid() % 250
	for i := range 250 {
		o := (start+i)%250 + 1
		if !used[o] {
			return o, nil
		}
	}
	return 0, errors.New("netlab: no free 10.231.X.0/24")
}

// run runs a command and answers its combined output.
func run(name string, args ...string) (string, error) {
	var b bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	return strings.TrimSpace(b.String()), err
}
