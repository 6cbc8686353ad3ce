// Package kubernetes_test validates the manifests in deploy/kubernetes
// offline: every document is decoded strictly (unknown or misspelt fields,
// duplicate keys and wrong types fail) into the Kubernetes API's own Go types
// from k8s.io/api, the schema the API server validates against, and then the
// pieces are checked against each other and against campus's configuration.
package kubernetes_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"

	"campus/cluster"
	"campus/config"
)

// manifests holds every object found, by kind.
type manifests struct {
	namespaces  []*corev1.Namespace
	deployments []*appsv1.Deployment
	services    []*corev1.Service
	accounts    []*corev1.ServiceAccount
	roles       []*rbacv1.Role
	bindings    []*rbacv1.RoleBinding
	pdbs        []*policyv1.PodDisruptionBudget
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	policies    []*networkingv1.NetworkPolicy
}

// decode parses one YAML document strictly into the type its apiVersion and
// kind name.
func (m *manifests) decode(doc []byte) error {
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return err
	}
	strict := func(obj any) error { return yaml.UnmarshalStrict(doc, obj) }
	switch tm.APIVersion + " " + tm.Kind {
	case "v1 Namespace":
		var o corev1.Namespace
		m.namespaces = append(m.namespaces, &o)
		return strict(&o)
	case "apps/v1 Deployment":
		var o appsv1.Deployment
		m.deployments = append(m.deployments, &o)
		return strict(&o)
	case "v1 Service":
		var o corev1.Service
		m.services = append(m.services, &o)
		return strict(&o)
	case "v1 ServiceAccount":
		var o corev1.ServiceAccount
		m.accounts = append(m.accounts, &o)
		return strict(&o)
	case "rbac.authorization.k8s.io/v1 Role":
		var o rbacv1.Role
		m.roles = append(m.roles, &o)
		return strict(&o)
	case "rbac.authorization.k8s.io/v1 RoleBinding":
		var o rbacv1.RoleBinding
		m.bindings = append(m.bindings, &o)
		return strict(&o)
	case "policy/v1 PodDisruptionBudget":
		var o policyv1.PodDisruptionBudget
		m.pdbs = append(m.pdbs, &o)
		return strict(&o)
	case "autoscaling/v2 HorizontalPodAutoscaler":
		var o autoscalingv2.HorizontalPodAutoscaler
		m.hpas = append(m.hpas, &o)
		return strict(&o)
	case "networking.k8s.io/v1 NetworkPolicy":
		var o networkingv1.NetworkPolicy
		m.policies = append(m.policies, &o)
		return strict(&o)
	}
	return fmt.Errorf("unexpected apiVersion %q kind %q", tm.APIVersion, tm.Kind)
}

var docSep = regexp.MustCompile(`(?m)^---\s*$`)

func load(t testing.TB) *manifests {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	m := &manifests{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range docSep.Split(string(raw), -1) {
			if len(bytes.TrimSpace(stripComments([]byte(doc)))) == 0 {
				continue
			}
			if err := m.decode([]byte(doc)); err != nil {
				t.Errorf("%s document %d: %v", f, i+1, err)
			}
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return m
}

func stripComments(doc []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(doc, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			out = append(out, line)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

func TestStrictDecodingRejectsMistakes(t *testing.T) {
	// The check must be able to fail: these are the mistakes it exists for.
	tests := []struct{ name, doc string }{
		{"misspelt field", "apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {selectr: {a: b}}\n"},
		{"wrong type", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: three}\n"},
		{"duplicate key", "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: x}\nmetadata: {name: y}\n"},
		{"unknown kind", "apiVersion: v1\nkind: Banana\nmetadata: {name: x}\n"},
		{"field at the wrong level", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: x}\nmaxUnavailable: 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := (&manifests{}).decode([]byte(tt.doc)); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

func TestManifests(t *testing.T) {
	m := load(t)
	if len(m.namespaces) != 1 || len(m.deployments) != 1 || len(m.services) != 1 || len(m.accounts) != 1 || len(m.roles) != 1 ||
		len(m.bindings) != 1 || len(m.pdbs) != 1 || len(m.hpas) != 1 || len(m.policies) != 2 {
		t.Fatalf("want one of each object and two network policies, got %d namespaces, %d deployments, %d services, %d service accounts, %d roles, %d bindings, %d PDBs, %d HPAs, %d network policies",
			len(m.namespaces), len(m.deployments), len(m.services), len(m.accounts), len(m.roles), len(m.bindings), len(m.pdbs), len(m.hpas), len(m.policies))
	}
	d := m.deployments[0]
	pod := d.Spec.Template
	podLabels := labels.Set(pod.Labels)
	if len(pod.Spec.Containers) != 1 {
		t.Fatalf("want one container, got %d", len(pod.Spec.Containers))
	}
	c := pod.Spec.Containers[0]

	t.Run("selectors pick the pods", func(t *testing.T) {
		sels := map[string]*metav1.LabelSelector{"deployment": d.Spec.Selector, "pdb": m.pdbs[0].Spec.Selector}
		for name, ls := range sels {
			sel, err := metav1.LabelSelectorAsSelector(ls)
			if err != nil || sel.Empty() || !sel.Matches(podLabels) {
				t.Errorf("%s selector %v does not pick the pod labels %v (%v)", name, ls, pod.Labels, err)
			}
		}
		if svc := labels.SelectorFromSet(m.services[0].Spec.Selector); svc.Empty() || !svc.Matches(podLabels) {
			t.Errorf("service selector %v does not pick the pods", m.services[0].Spec.Selector)
		}
		ref := m.hpas[0].Spec.ScaleTargetRef
		if ref.Kind != "Deployment" || ref.Name != d.Name || ref.APIVersion != "apps/v1" {
			t.Errorf("HPA scales %+v, not the deployment %s", ref, d.Name)
		}
		if len(c.Resources.Requests) == 0 || c.Resources.Requests.Cpu().IsZero() {
			t.Error("the HPA scales on CPU, so the container needs a CPU request")
		}
	})

	t.Run("ports and probes", func(t *testing.T) {
		ports := map[string]int32{}
		for _, p := range c.Ports {
			ports[p.Name] = p.ContainerPort
		}
		probes := []struct {
			name  string
			probe *corev1.Probe
			path  string
		}{
			{"readiness", c.ReadinessProbe, "/api/ready"},
			{"liveness", c.LivenessProbe, "/api/health"},
			{"startup", c.StartupProbe, "/api/health"},
		}
		for _, p := range probes {
			if p.probe == nil || p.probe.HTTPGet == nil {
				t.Errorf("%s probe: want an HTTP GET of %s", p.name, p.path)
				continue
			}
			if p.probe.HTTPGet.Path != p.path {
				t.Errorf("%s probe path %q, want %q", p.name, p.probe.HTTPGet.Path, p.path)
			}
			if _, ok := ports[p.probe.HTTPGet.Port.String()]; !ok {
				t.Errorf("%s probe port %q is not a container port %v", p.name, p.probe.HTTPGet.Port.String(), ports)
			}
		}
		for _, sp := range m.services[0].Spec.Ports {
			if _, ok := ports[sp.TargetPort.String()]; !ok {
				t.Errorf("service targets port %q, not a container port %v", sp.TargetPort.String(), ports)
			}
		}
		env := envOf(c)
		if want := fmt.Sprintf(":%d", ports["http"]); env["CAMPUS_ADDR"] != want {
			t.Errorf("CAMPUS_ADDR %q, want %q (the http container port)", env["CAMPUS_ADDR"], want)
		}
		if want := fmt.Sprintf("$(POD_IP):%d", ports["remoting"]); env["CAMPUS_CLUSTER_ADDR"] != want {
			t.Errorf("CAMPUS_CLUSTER_ADDR %q, want %q (the pod IP and the remoting port)", env["CAMPUS_CLUSTER_ADDR"], want)
		}
	})

	t.Run("the environment is a valid campus configuration", func(t *testing.T) {
		env, err := resolvedEnv(c)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if cfg.ClusterProvider != "k8s" {
			t.Errorf("provider %q, want k8s", cfg.ClusterProvider)
		}
		// Kubernetes sends SIGKILL after the grace period: it must cover the
		// preStop sleep and the whole graceful shutdown.
		grace := time.Duration(*pod.Spec.TerminationGracePeriodSeconds) * time.Second
		if grace < preStopSleep(t, c)+cfg.ShutdownTimeout {
			t.Errorf("terminationGracePeriodSeconds %s < preStop %s + CAMPUS_SHUTDOWN_TIMEOUT %s",
				grace, preStopSleep(t, c), cfg.ShutdownTimeout)
		}
	})

	t.Run("remoting is mutual TLS from the Secret", func(t *testing.T) {
		env := envOf(c)
		want := map[string]string{"CAMPUS_CLUSTER_TLS_CA": cluster.CAFile, "CAMPUS_CLUSTER_TLS_CERT": cluster.CertFile,
			"CAMPUS_CLUSTER_TLS_KEY": cluster.KeyFile}
		for name, key := range want {
			path := env[name]
			mount, vol := mountOf(pod.Spec, c, path)
			if mount == nil || vol == nil || vol.Secret == nil {
				t.Errorf("%s=%q is not in a mounted Secret", name, path)
				continue
			}
			if !mount.ReadOnly {
				t.Errorf("the Secret %s is mounted writable", vol.Secret.SecretName)
			}
			if vol.Secret.SecretName != "campus-cluster-tls" {
				t.Errorf("%s comes from Secret %q, want campus-cluster-tls", name, vol.Secret.SecretName)
			}
			// Read by the pod's user or its fsGroup, nobody else, written by none.
			if m := vol.Secret.DefaultMode; m == nil || (*m != 0o400 && *m != 0o440) {
				got := "unset"
				if m != nil {
					got = fmt.Sprintf("%#o", *m)
				}
				t.Errorf("Secret %s mode %s: want 0400 or 0440", vol.Secret.SecretName, got)
			}
			// The file is the Secret key of the same name (what campus
			// cluster certs writes), listed so a missing key stops the pod.
			rel := strings.TrimPrefix(strings.TrimPrefix(path, mount.MountPath), "/")
			found := false
			for _, it := range vol.Secret.Items {
				if it.Key == key && it.Path == rel {
					found = true
				}
			}
			if !found {
				t.Errorf("%s=%q: want the Secret's key %q at %q (items %v)", name, path, key, rel, vol.Secret.Items)
			}
		}
	})

	t.Run("only Campus pods reach remoting, only they reach etcd", func(t *testing.T) {
		ports := map[string]int32{}
		for _, p := range c.Ports {
			ports[p.Name] = p.ContainerPort
		}
		var campus, etcd *networkingv1.NetworkPolicy
		for _, p := range m.policies {
			sel, err := metav1.LabelSelectorAsSelector(&p.Spec.PodSelector)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case sel.Matches(podLabels):
				campus = p
			case sel.Matches(labels.Set{"app.kubernetes.io/name": "campus-etcd"}):
				etcd = p
			}
		}
		if campus == nil || etcd == nil {
			t.Fatalf("want a policy for the Campus pods and one for etcd's, got %v and %v", campus, etcd)
		}
		if err := onlyFrom(campus, intstr.FromString("remoting"), ports, podLabels); err != nil {
			t.Error(err)
		}
		if err := onlyFrom(campus, intstr.FromInt32(ports["remoting"]), ports, podLabels); err != nil {
			t.Error(err)
		}
		if !openToAll(campus, intstr.FromString("http"), ports) {
			t.Error("HTTP is not admitted from everywhere")
		}
		etcdPod := labels.Set{"app.kubernetes.io/name": "campus-etcd"}
		if err := onlyFrom(etcd, intstr.FromInt32(2379), nil, podLabels); err != nil {
			t.Error(err)
		}
		if err := onlyFrom(etcd, intstr.FromInt32(2380), nil, etcdPod); err != nil {
			t.Error(err)
		}
	})

	t.Run("the provider may do what it needs and no more", func(t *testing.T) {
		sa := m.accounts[0].Name
		if pod.Spec.ServiceAccountName != sa {
			t.Errorf("pods run as %q, not the service account %q", pod.Spec.ServiceAccountName, sa)
		}
		role := m.roles[0]
		if len(role.Rules) != 1 {
			t.Fatalf("want one rule, got %v", role.Rules)
		}
		r := role.Rules[0]
		if strings.Join(r.APIGroups, ",") != "" || strings.Join(r.Resources, ",") != "pods" ||
			strings.Join(r.Verbs, ",") != "get,list,watch,patch" {
			t.Errorf("rule %+v, want get/list/watch/patch on core pods", r)
		}
		b := m.bindings[0]
		if b.RoleRef.Kind != "Role" || b.RoleRef.Name != role.Name || b.RoleRef.APIGroup != rbacv1.GroupName {
			t.Errorf("binding refers to %+v, not the role %s", b.RoleRef, role.Name)
		}
		if len(b.Subjects) != 1 || b.Subjects[0].Kind != "ServiceAccount" || b.Subjects[0].Name != sa {
			t.Errorf("binding subjects %+v, want the service account %s", b.Subjects, sa)
		}
	})
}

// samples are what the kubelet fills in: the pod IP, and the Secrets' values.
var samples = map[string]string{
	"POD_IP":                "10.1.2.3",
	"DATABASE_URL":          "postgres://campus:secret@postgres:5432/campus?sslmode=verify-full&sslrootcert=/etc/campus/pg-ca.crt",
	"CAMPUS_MEDIA_URL":      "s3://campus-media?endpoint=https://s3.campus.example:9000&region=us-east-1",
	"AWS_ACCESS_KEY_ID":     "campus",
	"AWS_SECRET_ACCESS_KEY": "sample-secret",
}

// resolvedEnv is the container's environment as the process sees it, the
// references filled in with samples.
func resolvedEnv(c corev1.Container) (map[string]string, error) {
	env := envOf(c)
	for _, e := range c.Env {
		if e.ValueFrom != nil {
			v, ok := samples[e.Name]
			if !ok {
				return nil, fmt.Errorf("no sample value for %s (from %v)", e.Name, e.ValueFrom)
			}
			env[e.Name] = v
		}
	}
	for k, v := range env {
		env[k] = strings.ReplaceAll(v, "$(POD_IP)", samples["POD_IP"])
	}
	return env, nil
}

// envOf answers the container's literal env values.
func envOf(c corev1.Container) map[string]string {
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	return env
}

// preStopSleep reads the seconds of the `sleep N` preStop hook.
func preStopSleep(t *testing.T, c corev1.Container) time.Duration {
	t.Helper()
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Exec == nil {
		t.Fatal("want a preStop exec hook")
	}
	cmd := c.Lifecycle.PreStop.Exec.Command
	if len(cmd) != 2 || cmd[0] != "sleep" {
		t.Fatalf("preStop %v, want [sleep N]", cmd)
	}
	n, err := strconv.Atoi(cmd[1])
	if err != nil || n <= 0 {
		t.Fatalf("preStop sleep %q", cmd[1])
	}
	return time.Duration(n) * time.Second
}

// mountOf finds the container's volume mount holding path, and its volume.
func mountOf(spec corev1.PodSpec, c corev1.Container, path string) (*corev1.VolumeMount, *corev1.Volume) {
	for i, vm := range c.VolumeMounts {
		if path == "" || !strings.HasPrefix(path, strings.TrimSuffix(vm.MountPath, "/")+"/") {
			continue
		}
		for j, v := range spec.Volumes {
			if v.Name == vm.Name {
				return &c.VolumeMounts[i], &spec.Volumes[j]
			}
		}
		return &c.VolumeMounts[i], nil
	}
	return nil, nil
}

// rulesFor answers p's ingress rules that admit port (a rule without ports
// admits every port). ports maps the pod's port names to numbers, so a rule
// naming the port and one giving its number both count.
func rulesFor(p *networkingv1.NetworkPolicy, port intstr.IntOrString, ports map[string]int32) []networkingv1.NetworkPolicyIngressRule {
	same := func(a intstr.IntOrString) bool {
		num := func(x intstr.IntOrString) int32 {
			if x.Type == intstr.Int {
				return x.IntVal
			}
			return ports[x.StrVal]
		}
		return a.String() == port.String() || (num(a) != 0 && num(a) == num(port))
	}
	var out []networkingv1.NetworkPolicyIngressRule
	for _, r := range p.Spec.Ingress {
		admits := len(r.Ports) == 0
		for _, rp := range r.Ports {
			if rp.Port == nil || same(*rp.Port) {
				admits = true
			}
		}
		if admits {
			out = append(out, r)
		}
	}
	return out
}

// onlyFrom checks that p restricts ingress and admits port from pods with
// the labels want only: some rule admits it, and every rule that does names
// its peers, each a pod selector of this namespace that picks want and
// does not pick every pod.
func onlyFrom(p *networkingv1.NetworkPolicy, port intstr.IntOrString, ports map[string]int32, want labels.Set) error {
	ingress := false
	for _, t := range p.Spec.PolicyTypes {
		ingress = ingress || t == networkingv1.PolicyTypeIngress
	}
	if !ingress {
		return fmt.Errorf("policy %s does not restrict ingress", p.Name)
	}
	rules := rulesFor(p, port, ports)
	if len(rules) == 0 {
		return fmt.Errorf("policy %s admits port %s from nobody", p.Name, port.String())
	}
	for _, r := range rules {
		if len(r.From) == 0 {
			return fmt.Errorf("policy %s admits port %s from everywhere", p.Name, port.String())
		}
		for _, peer := range r.From {
			if peer.PodSelector == nil || peer.NamespaceSelector != nil || peer.IPBlock != nil {
				return fmt.Errorf("policy %s admits port %s from %+v, not only pods of this namespace", p.Name, port.String(), peer)
			}
			sel, err := metav1.LabelSelectorAsSelector(peer.PodSelector)
			if err != nil || sel.Empty() || !sel.Matches(want) {
				return fmt.Errorf("policy %s admits port %s from pods %v, want only %v", p.Name, port.String(), peer.PodSelector, want)
			}
		}
	}
	return nil
}

// openToAll reports whether a rule of p admits port from everywhere.
func openToAll(p *networkingv1.NetworkPolicy, port intstr.IntOrString, ports map[string]int32) bool {
	for _, r := range rulesFor(p, port, ports) {
		if len(r.From) == 0 {
			return true
		}
	}
	return false
}

func TestNetworkPolicyCheckFails(t *testing.T) {
	// The check must be able to fail: these are the policies it exists to refuse.
	campus := labels.Set{"app.kubernetes.io/name": "campus"}
	ports := map[string]int32{"http": 8080, "remoting": 6331}
	remoting := intstr.FromString("remoting")
	campusPeer := networkingv1.NetworkPolicyPeer{PodSelector: &metav1.LabelSelector{MatchLabels: campus}}
	rule := func(port intstr.IntOrString, from ...networkingv1.NetworkPolicyPeer) networkingv1.NetworkPolicyIngressRule {
		return networkingv1.NetworkPolicyIngressRule{From: from, Ports: []networkingv1.NetworkPolicyPort{{Port: &port}}}
	}
	policy := func(rules ...networkingv1.NetworkPolicyIngressRule) *networkingv1.NetworkPolicy {
		return &networkingv1.NetworkPolicy{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: networkingv1.NetworkPolicySpec{
			PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}, Ingress: rules}}
	}
	if err := onlyFrom(policy(rule(remoting, campusPeer)), remoting, ports, campus); err != nil {
		t.Fatalf("the good policy is refused: %v", err)
	}
	tests := []struct {
		name string
		p    *networkingv1.NetworkPolicy
	}{
		{"no rule for the port", policy(rule(intstr.FromString("http")))},
		{"the port from everywhere", policy(rule(remoting))},
		{"the port by number from everywhere", policy(rule(remoting, campusPeer), rule(intstr.FromInt32(6331)))},
		{"every port from everywhere", policy(rule(remoting, campusPeer), networkingv1.NetworkPolicyIngressRule{})},
		{"from every pod", policy(rule(remoting, networkingv1.NetworkPolicyPeer{PodSelector: &metav1.LabelSelector{}}))},
		{"from other namespaces too", policy(rule(remoting, networkingv1.NetworkPolicyPeer{PodSelector: campusPeer.PodSelector,
			NamespaceSelector: &metav1.LabelSelector{}}))},
		{"from an address block", policy(rule(remoting, networkingv1.NetworkPolicyPeer{IPBlock: &networkingv1.IPBlock{CIDR: "0.0.0.0/0"}}))},
		{"ingress not restricted", &networkingv1.NetworkPolicy{Spec: networkingv1.NetworkPolicySpec{
			PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeEgress}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := onlyFrom(tt.p, remoting, ports, campus); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}
