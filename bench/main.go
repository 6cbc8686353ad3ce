// Command bench is Campus's load generator (docs/architecture.md §11.2). It starts a real
// `campus serve` on a fresh embedded database (or targets --url), seeds users,
// friendships, posts and comments straight into Postgres, mints tokens for the
// seeded users, measures the baselines first and then the scenarios, and
// prints one table with every figure beside its baseline from the same run.
//
//	go run ./bench            the full run (minutes)
//	go run ./bench --quick    every scenario, small, in under a minute (CI smoke)
//	go run ./bench --soak 30m mixed traffic at half capacity, resource trends
//
// A scenario whose endpoint the server does not have yet reports
// "unavailable" instead of failing. The run exits non-zero when a consistency
// check finds a lost or phantom like, when the bench itself cannot run, and
// (with --strict) when a target is missed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// opts are the command-line settings. Sizes left at zero take the full or
// --quick preset.
type opts struct {
	quick     bool
	bin       string
	url       string
	dbURL     string
	serverPID int
	product   string
	json      bool
	keep      bool
	strict    bool
	only      string
	seed      int64

	users, posts, comments, friends int

	likers, viewers int
	duration        time.Duration
	warmup          time.Duration
	baseDur         time.Duration

	evPosts, evLikers, evViewers, evWatch int

	// The event space: its offered likes/s when the campus event did not
	// run (else half the event's closed loop), its big-screen clients and
	// the likes it starts with (an event in progress).
	pacedRate      float64
	screens        int
	evspaceBacklog int

	// event2x (issue 30): the paced campus event twice over — its posts,
	// likers, viewers, posts each viewer watches and likes/s offered.
	ev2xPosts, ev2xLikers, ev2xViewers, ev2xWatch int
	ev2xRate                                      float64

	// The cluster scenario (cluster.go): posts, likers, viewers (spread
	// over the nodes) and the length of each of its phases.
	clPosts, clLikers, clViewers int
	clPhase                      time.Duration

	// The netem scenario (netem.go): likes/s offered, posts, websockets
	// per node, how long each fault lasts, how long the members may take
	// to agree again after it heals, and which faults run.
	nmRate    float64
	nmPosts   int
	nmSockets int
	nmFault   time.Duration
	nmSettle  time.Duration
	nmFaults  string

	// The messages scenario (messages.go): its people (the first users),
	// their group conversations (how many, of how many members), each
	// person's mean time between sends in the paced phases, each
	// closed-loop level's measured length, the history conversation's
	// messages, and whether the peers (Dendrite) run the same workload.
	msgPeople, msgGroups, msgGroupSize int
	// msgPeerPeople is the size Campus and a peer both run at again when
	// the peer did not carry the full one (0: never).
	msgPeerPeople     int
	msgPace, msgLevel time.Duration
	msgHistory        int
	peers             bool

	feedConc   int
	queries    int
	searchConc int
	conns      int
	fanChanges int

	// The soak (soak.go): its length (0: no soak), sample interval,
	// warm-up (0: a fifth or 2 min, at most half), rate (0: half the
	// measured capacity) and sockets kept coming and going.
	soak        time.Duration
	soakSample  time.Duration
	soakWarmup  time.Duration
	soakRate    float64
	soakSockets int
	// soakProfiles is where the soak writes the server's heap profiles
	// (empty: bench-out/soak-<UTC time>).
	soakProfiles string
}

// preset fills every size the user left at zero.
func (o *opts) preset() {
	full := opts{
		users: 10_000, posts: 100_000, comments: 100_000, friends: 5,
		likers: 200, viewers: 2_000, duration: 20 * time.Second, warmup: 2 * time.Second, baseDur: 10 * time.Second,
		evPosts: 200, evLikers: 2_000, evViewers: 5_000, evWatch: 20, pacedRate: 500, screens: 50,
		ev2xPosts: 400, ev2xLikers: 4_000, ev2xViewers: 10_000, ev2xWatch: 20, ev2xRate: 1_000,
		feedConc: 200, queries: 1_000, searchConc: 8, fanChanges: 5,
		clPosts: 40, clLikers: 60, clViewers: 60, clPhase: 8 * time.Second,
		msgPeople: 2_000, msgGroups: 20, msgGroupSize: 200, msgPace: 10 * time.Second, msgLevel: 5 * time.Second, msgHistory: 10_000,
	}
	quick := opts{
		users: 1_000, posts: 5_000, comments: 3_000, friends: 3,
		likers: 50, viewers: 200, duration: 3 * time.Second, warmup: 500 * time.Millisecond, baseDur: 2 * time.Second,
		evPosts: 20, evLikers: 100, evViewers: 300, evWatch: 5, pacedRate: 100, screens: 10,
		ev2xPosts: 40, ev2xLikers: 200, ev2xViewers: 600, ev2xWatch: 5, ev2xRate: 200,
		feedConc: 50, queries: 200, searchConc: 4, conns: 1_000, fanChanges: 3,
		clPosts: 12, clLikers: 24, clViewers: 12, clPhase: 4 * time.Second,
		msgPeople: 300, msgGroups: 3, msgGroupSize: 60, msgPace: 10 * time.Second, msgLevel: time.Second, msgHistory: 10_000,
	}
	p := full
	if o.quick {
		p = quick
	}
	setI := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	setD := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	setI(&o.users, p.users)
	setI(&o.posts, p.posts)
	setI(&o.comments, p.comments)
	setI(&o.friends, p.friends)
	setI(&o.likers, p.likers)
	setI(&o.viewers, p.viewers)
	setD(&o.duration, p.duration)
	setD(&o.warmup, p.warmup)
	setD(&o.baseDur, p.baseDur)
	setI(&o.evPosts, p.evPosts)
	setI(&o.evLikers, p.evLikers)
	setI(&o.evViewers, p.evViewers)
	setI(&o.evWatch, p.evWatch)
	if o.pacedRate == 0 {
		o.pacedRate = p.pacedRate
	}
	setI(&o.screens, p.screens)
	setI(&o.ev2xPosts, p.ev2xPosts)
	setI(&o.ev2xLikers, p.ev2xLikers)
	setI(&o.ev2xViewers, p.ev2xViewers)
	setI(&o.ev2xWatch, p.ev2xWatch)
	if o.ev2xRate == 0 {
		o.ev2xRate = p.ev2xRate
	}
	setI(&o.feedConc, p.feedConc)
	setI(&o.queries, p.queries)
	setI(&o.searchConc, p.searchConc)
	setI(&o.conns, p.conns) // 0 in the full preset: as many as the open-file limit allows
	setI(&o.fanChanges, p.fanChanges)
	setI(&o.clPosts, p.clPosts)
	setI(&o.clLikers, p.clLikers)
	setI(&o.clViewers, p.clViewers)
	setD(&o.clPhase, p.clPhase)
	setI(&o.msgPeople, min(p.msgPeople, o.users))
	setI(&o.msgGroups, p.msgGroups)
	setI(&o.msgGroupSize, min(p.msgGroupSize, o.msgPeople))
	setD(&o.msgPace, p.msgPace)
	setD(&o.msgLevel, p.msgLevel)
	setI(&o.msgHistory, p.msgHistory)
	if o.evWatch > o.evPosts {
		o.evWatch = o.evPosts
	}
	if o.ev2xWatch > o.ev2xPosts {
		o.ev2xWatch = o.ev2xPosts
	}
}

// scenario names for --only.
var scenarioNames = []string{"baselines", "storm", "event", "event2x", "eventspace", "feed", "search", "crash", "conns", "messages", "cluster", "netem", "sso", "peers"}

// optIn are the scenarios that run only when --only names them: netem
// builds network namespaces as root and puts the bench's Postgres in one.
var optIn = []string{"netem"}

func parseFlags(args []string) (opts, error) {
	var o opts
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.BoolVar(&o.quick, "quick", false, "every scenario small, in under a minute (CI smoke)")
	fs.StringVar(&o.bin, "bin", "bin/campus", "the campus binary to start")
	fs.StringVar(&o.url, "url", "", "target a running server (http://host:port) instead of starting one; needs --database-url")
	fs.StringVar(&o.dbURL, "database-url", "", "the server's Postgres (with --url), or an external Postgres for the started server")
	fs.IntVar(&o.serverPID, "server-pid", 0, "with --url: the server's pid, for its CPU and RSS")
	fs.StringVar(&o.product, "product", "Campus", "the server's CAMPUS_PRODUCT_NAME (the token issuer), with --url")
	fs.BoolVar(&o.json, "json", false, "print the results as JSON on stdout (the table goes to stderr)")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary data dir (server log, database)")
	fs.BoolVar(&o.strict, "strict", false, "exit non-zero when a target is missed, not only on lost/phantom likes")
	fs.StringVar(&o.only, "only", "", "comma-separated scenarios to run: "+strings.Join(scenarioNames, ","))
	fs.Int64Var(&o.seed, "seed", 1, "random seed of the generated data and load")
	fs.IntVar(&o.users, "users", 0, "seeded users (default 10000; quick 1000)")
	fs.IntVar(&o.posts, "posts", 0, "seeded posts (default 100000; quick 5000)")
	fs.IntVar(&o.comments, "comments", 0, "seeded comments (default 100000; quick 3000)")
	fs.IntVar(&o.friends, "friends", 0, "friendships per user (default 5; quick 3)")
	fs.IntVar(&o.likers, "likers", 0, "like storm: concurrent likers, one keep-alive connection each (default 200)")
	fs.IntVar(&o.viewers, "viewers", 0, "like storm: websocket viewers of the hot post (default 2000)")
	fs.DurationVar(&o.duration, "duration", 0, "like storm, campus event and crash: measured duration (default 20s)")
	fs.DurationVar(&o.warmup, "warmup", 0, "unmeasured load before each measurement (default 2s)")
	fs.DurationVar(&o.baseDur, "base-duration", 0, "baselines and feed: measured duration (default 10s)")
	fs.IntVar(&o.evPosts, "event-posts", 0, "campus event: posts (default 200)")
	fs.IntVar(&o.evLikers, "event-likers", 0, "campus event: concurrent likers (default 2000)")
	fs.IntVar(&o.evViewers, "event-viewers", 0, "campus event: websocket viewers (default 5000)")
	fs.IntVar(&o.evWatch, "event-watch", 0, "campus event: posts each viewer watches (default 20)")
	fs.Float64Var(&o.pacedRate, "paced-rate", 0, "campus event's paced runs and event space: likes/s offered, open loop (default 500, issue 13's human pace: each of 2,000 likers every 4 s; quick 100)")
	fs.IntVar(&o.screens, "screens", 0, "event space: big-screen clients, each calling GET /api/groups/{handle}/live once a second (default 50; quick 10)")
	fs.IntVar(&o.ev2xPosts, "event2x-posts", 0, "event2x: posts (default 400; quick 40)")
	fs.IntVar(&o.ev2xLikers, "event2x-likers", 0, "event2x: likers, each liking at Poisson intervals (default 4000; quick 200)")
	fs.IntVar(&o.ev2xViewers, "event2x-viewers", 0, "event2x: websocket viewers (default 10000; quick 600)")
	fs.IntVar(&o.ev2xWatch, "event2x-watch", 0, "event2x: posts each viewer watches (default 20; quick 5)")
	fs.Float64Var(&o.ev2xRate, "event2x-rate", 0, "event2x: likes/s offered, open loop (default 1000: each of 4,000 likers every 4 s; quick 200)")
	fs.IntVar(&o.evspaceBacklog, "evspace-backlog", 0, "event space: likes already given in the last 9 minutes when it starts (an event in progress; the big screen counts them), by the last users, Zipf over the posts (default 0)")
	fs.IntVar(&o.feedConc, "feed-conc", 0, "feed read: concurrent readers (default 200)")
	fs.IntVar(&o.queries, "queries", 0, "search: queries (default 1000)")
	fs.IntVar(&o.searchConc, "search-conc", 0, "search: concurrent searchers (default 8)")
	fs.IntVar(&o.conns, "conns", 0, "connections: idle websockets to open (default: as many as the open-file limit allows)")
	fs.IntVar(&o.fanChanges, "fan-changes", 0, "fan-out: count changes to time (default 5)")
	fs.IntVar(&o.clPosts, "cluster-posts", 0, "cluster: posts liked (default 40; quick 12)")
	fs.IntVar(&o.clLikers, "cluster-likers", 0, "cluster: concurrent likers over every node (default 60; quick 24)")
	fs.IntVar(&o.clViewers, "cluster-viewers", 0, "cluster: websocket viewers over every node (default 60; quick 12)")
	fs.DurationVar(&o.clPhase, "cluster-phase", 0, "cluster: length of each phase (default 8s; quick 4s)")
	fs.IntVar(&o.msgPeople, "msg-people", 0, "messages: people, each with a socket open (default 2000; quick 300)")
	fs.IntVar(&o.msgGroups, "msg-groups", 0, "messages: group conversations (default 20; quick 3)")
	fs.IntVar(&o.msgGroupSize, "msg-group-size", 0, "messages: members of each group conversation, 2-256 (default 200; quick 60)")
	fs.DurationVar(&o.msgPace, "msg-pace", 0, "messages: each person's mean time between sends in the paced phases, Poisson (default 10s)")
	fs.DurationVar(&o.msgLevel, "msg-level", 0, "messages: measured length of each closed-loop level (default 5s; quick 1s)")
	fs.IntVar(&o.msgHistory, "msg-history", 0, "messages: messages in the history conversation (default 10000)")
	fs.IntVar(&o.msgPeerPeople, "msg-peer-people", 300, "messages: when a peer fails at --msg-people, both run again at this size for a ratio (0: never)")
	fs.BoolVar(&o.peers, "peers", true, "run the same workloads on the peers: the count fan-out on Centrifugo, the messages on Dendrite (default true; false with --quick unless --only peers)")
	fs.Float64Var(&o.nmRate, "netem-rate", 200, "netem: likes/s offered over every node, open loop")
	fs.IntVar(&o.nmPosts, "netem-posts", 20, "netem: posts liked")
	fs.IntVar(&o.nmSockets, "netem-sockets", 5, "netem: websockets per node watching every post")
	fs.DurationVar(&o.nmFault, "netem-fault", 15*time.Second, "netem: how long each fault lasts")
	fs.DurationVar(&o.nmSettle, "netem-settle", time.Minute, "netem: how long the members may take to agree again after a fault heals")
	fs.StringVar(&o.nmFaults, "netem-faults", strings.Join(netemFaultNames, ","), "netem: the faults to run, in order")
	fs.DurationVar(&o.soak, "soak", 0, "run only the soak for this long: mixed traffic at half capacity, resources sampled, their slopes judged")
	fs.DurationVar(&o.soakSample, "soak-sample", 30*time.Second, "soak: sample interval")
	fs.DurationVar(&o.soakWarmup, "soak-warmup", 0, "soak: samples before this are not judged (default a fifth of the run or 2m, at most half)")
	fs.Float64Var(&o.soakRate, "soak-rate", 0, "soak: requests/s (default half the mix's measured closed-loop capacity)")
	fs.IntVar(&o.soakSockets, "soak-sockets", 100, "soak: websockets kept open, each closing and reopening after ~30s")
	fs.StringVar(&o.soakProfiles, "soak-profiles", "", "soak: directory for the server's heap profiles at the end of the warm-up, mid-way and at the end (default bench-out/soak-<UTC time>)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	peersSet := false
	fs.Visit(func(f *flag.Flag) { peersSet = peersSet || f.Name == "peers" })
	if o.quick && !peersSet && !contains(splitList(o.only), "peers") {
		o.peers = false // CI runs --quick: building and starting a peer is slow
	}
	if o.users != 0 && o.users < 100 {
		return o, errors.New("--users: at least 100")
	}
	if o.pacedRate < 0 || o.screens < 0 || o.evspaceBacklog < 0 || o.ev2xRate < 0 {
		return o, errors.New("--paced-rate, --screens, --evspace-backlog, --event2x-rate: not negative")
	}
	if o.ev2xPosts < 0 || o.ev2xLikers < 0 || o.ev2xViewers < 0 || o.ev2xWatch < 0 {
		return o, errors.New("--event2x-posts, --event2x-likers, --event2x-viewers, --event2x-watch: not negative")
	}
	if o.url != "" && o.dbURL == "" {
		return o, errors.New("--url needs --database-url (the bench seeds and checks through Postgres)")
	}
	for _, s := range splitList(o.only) {
		if !contains(scenarioNames, s) {
			return o, fmt.Errorf("--only: unknown scenario %q (want %s)", s, strings.Join(scenarioNames, ","))
		}
	}
	if contains(splitList(o.only), "netem") {
		if o.url != "" || o.dbURL != "" {
			return o, errors.New("--only netem: the bench starts its own server and Postgres (in a network namespace); no --url or --database-url")
		}
		for _, f := range splitList(o.nmFaults) {
			if !contains(netemFaultNames, f) {
				return o, fmt.Errorf("--netem-faults: unknown fault %q (want %s)", f, strings.Join(netemFaultNames, ","))
			}
		}
		if o.nmRate <= 0 || o.nmPosts <= 0 || o.nmSockets < 0 || o.nmFault <= 0 || o.nmSettle <= 0 {
			return o, errors.New("--netem-rate, --netem-posts, --netem-fault, --netem-settle: above zero; --netem-sockets: not negative")
		}
	}
	if o.soakProfiles != "" && o.soak <= 0 {
		return o, errors.New("--soak-profiles needs --soak")
	}
	if o.soak > 0 {
		if o.only != "" {
			return o, errors.New("--soak runs alone: no --only")
		}
		if o.soakSample <= 0 || o.soak < 3*o.soakSample {
			return o, errors.New("--soak: at least three --soak-sample intervals")
		}
		// No scenario is wanted: the indexing wait before the soak then
		// waits without reporting a search figure.
		o.only = "soak"
	}
	o.preset()
	if err := o.checkMessages(); err != nil {
		return o, err
	}
	return o, nil
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	o, err := parseFlags(args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	b := newBench(o)
	defer b.close()
	if err := b.setup(ctx); err != nil {
		b.progress("setup failed: %v", err)
		b.rep.fatal = err.Error()
		b.print()
		return 1
	}
	b.runScenarios(ctx)
	b.print()
	switch {
	case b.rep.failed():
		return 1
	case ctx.Err() != nil:
		return 130
	case o.strict && b.rep.missed():
		return 3
	}
	return 0
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
