package kubernetes_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"

	"campus/config"
	"campus/deploy/image"
)

// listenConnsPerPod are the Postgres connections a node opens beside its
// pool (CAMPUS_DB_MAX_CONNS): pgdriver listeners for token revocations and
// blocks, the mail outbox, the push outbox and the search tailer.
const listenConnsPerPod = 4

// budgetAnnotation on the HPA states how many Postgres connections the
// Campus pods may hold together.
const budgetAnnotation = "campus/postgres-connection-budget"

// minBlip is the Postgres outage readiness must sit through before a pod
// leaves the Service: a restart or a failover to a standby, during which
// every pod fails at once.
const minBlip = 30 * time.Second

// readyCheckBound is how long /api/ready's own checks may take
// (httpapi/system.go); a probe timeout shorter than that counts a slow
// answer as a failure.
const readyCheckBound = 2 * time.Second

// operation is one rule and its check.
type operation struct {
	name  string
	check func(m *manifests) error
}

// operations are the rules an operator's deployment keeps, each one a
// check over the manifests. TestOperations runs them on the files;
// TestOperationsCatchMistakes shows that each fails on the mistake it is
// for.
var operations = []operation{
	{"one namespace holds everything", func(m *manifests) error {
		ns := m.namespaces[0].Name
		var wrong []string
		for _, o := range m.objects() {
			if o.GetNamespace() != ns {
				wrong = append(wrong, fmt.Sprintf("%s is in %q", o.GetName(), o.GetNamespace()))
			}
		}
		for _, s := range m.bindings[0].Subjects {
			if s.Kind == "ServiceAccount" && s.Namespace != ns {
				wrong = append(wrong, fmt.Sprintf("binding subject %s is in %q", s.Name, s.Namespace))
			}
		}
		if len(wrong) > 0 {
			return fmt.Errorf("want every object in namespace %s: %s", ns, strings.Join(wrong, ", "))
		}
		return nil
	}},
	{"runs the image make image builds, as its user", func(m *manifests) error {
		pod := m.deployments[0].Spec.Template.Spec
		c := pod.Containers[0]
		if c.Image != image.DefaultRef {
			return fmt.Errorf("image %q, but make image writes %q", c.Image, image.DefaultRef)
		}
		mk, err := os.ReadFile("../../Makefile")
		if err != nil {
			return err
		}
		if m := regexp.MustCompile(`(?m)^IMAGE\s*\?=\s*(\S+)`).FindSubmatch(mk); m == nil || string(m[1]) != c.Image {
			return fmt.Errorf("the Makefile's IMAGE default is not %q", c.Image)
		}
		if strings.HasSuffix(c.Image, ":latest") && c.ImagePullPolicy != corev1.PullIfNotPresent {
			return fmt.Errorf("a :latest image with pull policy %q is pulled at every start", c.ImagePullPolicy)
		}
		sc := pod.SecurityContext
		if sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != image.UID || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
			return fmt.Errorf("pods must run as the image's user %d, not root", image.UID)
		}
		env := envOf(c)
		for _, vm := range c.VolumeMounts {
			if vm.Name == "data" && vm.MountPath != env["CAMPUS_DATA_DIR"] {
				return fmt.Errorf("the data volume is at %s, CAMPUS_DATA_DIR is %s", vm.MountPath, env["CAMPUS_DATA_DIR"])
			}
		}
		return nil
	}},
	{"the autoscaler alone sets the replica count", func(m *manifests) error {
		if m.deployments[0].Spec.Replicas != nil && len(m.hpas) > 0 {
			return fmt.Errorf("replicas %d beside an autoscaler: every apply resets its count", *m.deployments[0].Spec.Replicas)
		}
		return nil
	}},
	{"GOMEMLIMIT is under the memory limit", func(m *manifests) error {
		c := m.deployments[0].Spec.Template.Spec.Containers[0]
		limit := c.Resources.Limits.Memory()
		if limit.IsZero() {
			return errors.New("no memory limit")
		}
		soft, err := goMemLimit(envOf(c)["GOMEMLIMIT"])
		if err != nil {
			return err
		}
		// The rest is for what the runtime's limit does not see: mapped
		// index files, pg_dump, stacks outside the heap.
		if soft > limit.Value()*9/10 {
			return fmt.Errorf("GOMEMLIMIT %d bytes is over 90%% of the %s limit", soft, limit)
		}
		return nil
	}},
	{"pods spread across nodes", func(m *manifests) error {
		pod := m.deployments[0].Spec.Template
		for _, tsc := range pod.Spec.TopologySpreadConstraints {
			sel, err := metav1.LabelSelectorAsSelector(tsc.LabelSelector)
			if err != nil {
				return err
			}
			if tsc.TopologyKey == corev1.LabelHostname && tsc.WhenUnsatisfiable == corev1.DoNotSchedule &&
				tsc.MaxSkew == 1 && !sel.Empty() && sel.Matches(labels.Set(pod.Labels)) {
				return nil
			}
		}
		return errors.New("want a topology spread constraint on kubernetes.io/hostname, maxSkew 1, DoNotSchedule, selecting the pods")
	}},
	{"the Service exposes HTTP only", func(m *manifests) error {
		c := m.deployments[0].Spec.Template.Spec.Containers[0]
		byName := map[string]int32{}
		for _, p := range c.Ports {
			byName[p.Name] = p.ContainerPort
		}
		for _, sp := range m.services[0].Spec.Ports {
			target := sp.TargetPort
			if target.Type == intstr.String {
				target = intstr.FromInt32(byName[target.StrVal])
			}
			if target.IntVal != byName["http"] {
				return fmt.Errorf("service port %s reaches container port %d, not http (%d)", sp.Name, target.IntVal, byName["http"])
			}
		}
		// Metrics have their own listener, on a container port of their own.
		_, port, err := net.SplitHostPort(envOf(c)["CAMPUS_METRICS_ADDR"])
		if err != nil {
			return fmt.Errorf("CAMPUS_METRICS_ADDR: %w", err)
		}
		if n, _ := strconv.Atoi(port); n != int(byName["metrics"]) || n == int(byName["http"]) {
			return fmt.Errorf("CAMPUS_METRICS_ADDR port %s: want the container's metrics port %d, apart from http", port, byName["metrics"])
		}
		return nil
	}},
	{"readiness sits through a Postgres blip", func(m *manifests) error {
		p := m.deployments[0].Spec.Template.Spec.Containers[0].ReadinessProbe
		tolerated := time.Duration(p.PeriodSeconds*p.FailureThreshold) * time.Second
		if tolerated < minBlip {
			return fmt.Errorf("readiness gives up after %s of failures (period × failureThreshold): every pod leaves the Service on a shorter blip than %s", tolerated, minBlip)
		}
		if time.Duration(p.TimeoutSeconds)*time.Second <= readyCheckBound {
			return fmt.Errorf("readiness timeout %ds does not cover the check's own %s", p.TimeoutSeconds, readyCheckBound)
		}
		return nil
	}},
	{"the trusted proxies are a narrow range", func(m *manifests) error {
		cfg, err := campusConfig(m)
		if err != nil {
			return err
		}
		if len(cfg.TrustedProxies) == 0 {
			return errors.New("no CAMPUS_TRUSTED_PROXIES: every client would share the ingress's address and its rate limits")
		}
		for _, p := range cfg.TrustedProxies {
			if p.Addr().Is4() && p.Bits() < 24 || !p.Addr().Is4() && p.Bits() < 120 {
				return fmt.Errorf("CAMPUS_TRUSTED_PROXIES %s: more than 256 addresses may forge X-Forwarded-For", p)
			}
		}
		return nil
	}},
	{"the Postgres connections fit the budget", func(m *manifests) error {
		cfg, err := campusConfig(m)
		if err != nil {
			return err
		}
		d, hpa := m.deployments[0], m.hpas[0]
		budget, err := strconv.Atoi(hpa.Annotations[budgetAnnotation])
		if err != nil {
			return fmt.Errorf("HPA annotation %s: %v", budgetAnnotation, err)
		}
		ru := d.Spec.Strategy.RollingUpdate
		if ru == nil || ru.MaxSurge == nil || ru.MaxSurge.Type != intstr.Int {
			return errors.New("want a rolling update with a whole-number maxSurge")
		}
		// One old pod may still be draining while the rollout goes on only
		// if a new pod is not available before the grace period is over.
		grace := *d.Spec.Template.Spec.TerminationGracePeriodSeconds
		if int64(d.Spec.MinReadySeconds) < grace {
			return fmt.Errorf("minReadySeconds %d < terminationGracePeriodSeconds %d: a rollout could have several pods draining at once", d.Spec.MinReadySeconds, grace)
		}
		pods := int(hpa.Spec.MaxReplicas) + ru.MaxSurge.IntValue() + 1
		conns := pods * (cfg.DBMaxConns + listenConnsPerPod)
		if conns > budget {
			return fmt.Errorf("(%d max replicas + %d surge + 1 draining) × (CAMPUS_DB_MAX_CONNS %d + %d listeners) = %d connections > the budget %d",
				hpa.Spec.MaxReplicas, ru.MaxSurge.IntValue(), cfg.DBMaxConns, listenConnsPerPod, conns, budget)
		}
		return nil
	}},
}

func TestOperations(t *testing.T) {
	m := load(t)
	if len(m.namespaces) != 1 || len(m.deployments) != 1 || len(m.services) != 1 || len(m.hpas) != 1 || len(m.bindings) != 1 {
		t.Fatal("TestManifests says which objects are missing")
	}
	for _, op := range operations {
		t.Run(op.name, func(t *testing.T) {
			if err := op.check(m); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestOperationsCatchMistakes: each check fails on the manifests with the
// mistake it exists for, made on a fresh copy.
func TestOperationsCatchMistakes(t *testing.T) {
	container := func(m *manifests) *corev1.Container { return &m.deployments[0].Spec.Template.Spec.Containers[0] }
	setEnv := func(m *manifests, name, value string) {
		c := container(m)
		for i := range c.Env {
			if c.Env[i].Name == name {
				c.Env[i].Value = value
				return
			}
		}
		c.Env = append(c.Env, corev1.EnvVar{Name: name, Value: value})
	}
	three := int32(3)
	tests := []struct {
		check   string
		mistake func(m *manifests)
	}{
		{"one namespace holds everything", func(m *manifests) { m.services[0].Namespace = "" }},
		{"one namespace holds everything", func(m *manifests) { m.bindings[0].Subjects[0].Namespace = "default" }},
		{"runs the image make image builds, as its user", func(m *manifests) { container(m).Image = "campus:v2" }},
		{"runs the image make image builds, as its user", func(m *manifests) { container(m).ImagePullPolicy = corev1.PullAlways }},
		{"runs the image make image builds, as its user", func(m *manifests) {
			root := int64(0)
			m.deployments[0].Spec.Template.Spec.SecurityContext.RunAsUser = &root
		}},
		{"the autoscaler alone sets the replica count", func(m *manifests) { m.deployments[0].Spec.Replicas = &three }},
		{"GOMEMLIMIT is under the memory limit", func(m *manifests) { setEnv(m, "GOMEMLIMIT", "1GiB") }},
		{"GOMEMLIMIT is under the memory limit", func(m *manifests) { setEnv(m, "GOMEMLIMIT", "lots") }},
		{"pods spread across nodes", func(m *manifests) { m.deployments[0].Spec.Template.Spec.TopologySpreadConstraints = nil }},
		{"the Service exposes HTTP only", func(m *manifests) {
			m.services[0].Spec.Ports = append(m.services[0].Spec.Ports, corev1.ServicePort{Name: "metrics", Port: 9090, TargetPort: intstr.FromString("metrics")})
		}},
		{"the Service exposes HTTP only", func(m *manifests) { setEnv(m, "CAMPUS_METRICS_ADDR", ":8080") }},
		{"readiness sits through a Postgres blip", func(m *manifests) { container(m).ReadinessProbe.FailureThreshold = 2 }},
		{"readiness sits through a Postgres blip", func(m *manifests) { container(m).ReadinessProbe.TimeoutSeconds = 1 }},
		{"the trusted proxies are a narrow range", func(m *manifests) { setEnv(m, "CAMPUS_TRUSTED_PROXIES", "10.0.0.0/8") }},
		{"the Postgres connections fit the budget", func(m *manifests) { setEnv(m, "CAMPUS_DB_MAX_CONNS", "50") }},
		{"the Postgres connections fit the budget", func(m *manifests) { m.hpas[0].Spec.MaxReplicas = 20 }},
		{"the Postgres connections fit the budget", func(m *manifests) { m.deployments[0].Spec.MinReadySeconds = 0 }},
	}
	for _, tt := range tests {
		i := slices.IndexFunc(operations, func(op operation) bool { return op.name == tt.check })
		if i < 0 {
			t.Fatalf("no check %q", tt.check)
		}
		t.Run(tt.check, func(t *testing.T) {
			m := load(t)
			if err := operations[i].check(m); err != nil {
				t.Fatalf("fails before the mistake: %v", err)
			}
			tt.mistake(m)
			if err := operations[i].check(m); err == nil {
				t.Fatal("the mistake passed")
			} else {
				t.Log(err)
			}
		})
	}
}

// objects are the namespaced objects' metadata.
func (m *manifests) objects() []metav1.Object {
	var out []metav1.Object
	for _, o := range m.deployments {
		out = append(out, o)
	}
	for _, o := range m.services {
		out = append(out, o)
	}
	for _, o := range m.accounts {
		out = append(out, o)
	}
	for _, o := range m.roles {
		out = append(out, o)
	}
	for _, o := range m.bindings {
		out = append(out, o)
	}
	for _, o := range m.pdbs {
		out = append(out, o)
	}
	for _, o := range m.hpas {
		out = append(out, o)
	}
	for _, o := range m.policies {
		out = append(out, o)
	}
	return out
}

// campusConfig is the container's environment as campus reads it.
func campusConfig(m *manifests) (config.Config, error) {
	env, err := resolvedEnv(m.deployments[0].Spec.Template.Spec.Containers[0])
	if err != nil {
		return config.Config{}, err
	}
	return config.Load(func(k string) string { return env[k] })
}

// goMemLimit parses GOMEMLIMIT as the Go runtime does: bytes, with an
// optional B, KiB, MiB, GiB or TiB suffix.
func goMemLimit(v string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	mult := int64(1)
	num := v
	for _, u := range units {
		if n, ok := strings.CutSuffix(v, u.suffix); ok {
			num, mult = n, u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("GOMEMLIMIT %q: want a size such as 800MiB", v)
	}
	return n * mult, nil
}
