package docs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The repository's comments and documents may cite only documents that are
// in it: a section sign (§) must belong to one of docs/*.md (and name a
// section that document has), to an outside standard (an RFC, GIF89a), or —
// inside docs/*.md — to the document it is in. DESIGN.md and the product
// spec are not in the repository; their content is in docs/.

// owner matches what a section sign may belong to. Within reach of a §, the
// nearest one before it is its document.
var owner = regexp.MustCompile(`\b(?:docs/)?(?P<ours>architecture|protocol|product)\.md\b` +
	`|(?P<design>\bDESIGN(?:\.md)?\b)` +
	`|(?P<spec>(?:\bspec/)?\bproduct-spec(?:\.md)?|\b[Ss]pec(?:'s)?\b)` +
	`|(?P<other>\bRFC ?\d+|\bGIF89a\b|\bREADME(?:\.md)?\b)`)

// run matches a run of sections: §4.1 · §4.1, §6 · §5 and §9 · §2.3–2.5.
var run = regexp.MustCompile(`§§?\s*(\d+(?:\.\d+)*)((?:\s*(?:,|and|or|–|-|/)\s*(?:§\s*)?\d+(?:\.\d+)*)*)`)

// item is one further section of a run.
var item = regexp.MustCompile(`\s*(?:,|and|or|–|-|/)\s*(§\s*)?(\d+(?:\.\d+)*)`)

// continuation is a line break with the next line's comment marker, which
// does not count towards the distance between a § and its document.
var continuation = regexp.MustCompile(`\n[ \t]*(?://+|/?\*+|#+|--|;+)?[ \t]*`)

// reach is how far (comment markers of wrapped lines not counted) a § may be
// from the name of its document.
const reach = 60

// heading is a numbered heading of a document: "## 4. A node", "### 4.1 The post grain".
var heading = regexp.MustCompile(`(?m)^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s`)

// foreignNames are the documents that must not be named at all.
var foreignNames = regexp.MustCompile(`DESIGN\.md|product-spec`)

// textFile reports whether name is a file whose comments or text may cite.
func textFile(name string) bool {
	switch filepath.Ext(name) {
	case ".go", ".proto", ".ts", ".tsx", ".js", ".mjs", ".cjs", ".css", ".html", ".md",
		".sh", ".yaml", ".yml", ".sql", ".txt", ".toml":
		return true
	}
	switch name {
	case "Makefile", "Procfile", "Dockerfile":
		return true
	}
	return false
}

// skipDir lists directories that hold no source of ours.
func skipDir(name string) bool {
	switch name {
	case "node_modules", "dist", "var", "bin", "testdata":
		return true
	}
	return strings.HasPrefix(name, ".") && name != "."
}

// sections reads the numbered headings of each docs/*.md.
func sections(t *testing.T, dir string) map[string]map[string]bool {
	t.Helper()
	docs := map[string]map[string]bool{}
	for _, name := range []string{"architecture", "protocol", "product"} {
		b, err := os.ReadFile(filepath.Join(dir, name+".md"))
		if err != nil {
			t.Fatalf("docs/%s.md: %v", name, err)
		}
		set := map[string]bool{}
		for _, m := range heading.FindAllStringSubmatch(string(b), -1) {
			set[m[1]] = true
		}
		if len(set) == 0 {
			t.Fatalf("docs/%s.md has no numbered sections", name)
		}
		docs[name] = set
	}
	return docs
}

// citations checks text (of the file at path; self is the document it is,
// "" when it is none of docs/*.md) and answers what is wrong with it.
func citations(text, self string, docs map[string]map[string]bool) []string {
	var bad []string
	line := func(pos int) int { return strings.Count(text[:pos], "\n") + 1 }
	for _, loc := range foreignNames.FindAllStringIndex(text, -1) {
		bad = append(bad, lineMsg(line(loc[0]), "names a document that is not in the repository: "+text[loc[0]:loc[1]]))
	}
	owners := owner.FindAllStringSubmatchIndex(text, -1)
	// A "spec" that goes on as a word or a call (spec.pace, specs) names no document.
	owners = slices.DeleteFunc(owners, func(m []int) bool {
		if m[6] < 0 || m[7] >= len(text) {
			return false
		}
		c := text[m[7]]
		return c == '.' || c == '(' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	})
	for _, r := range run.FindAllStringSubmatchIndex(text, -1) {
		cited := text[r[0]:r[1]]
		nums := []string{text[r[2]:r[3]]}
		for _, m := range item.FindAllStringSubmatch(text[r[4]:r[5]], -1) {
			nums = append(nums, m[2])
		}
		doc, kind := self, "ours"
		if o := nearest(owners, text, r[0]); o != nil {
			kind = ownerKind(o)
			if kind == "ours" {
				doc = text[o[2]:o[3]]
			}
		}
		switch {
		case kind == "design" || kind == "spec":
			bad = append(bad, lineMsg(line(r[0]), "cites a document that is not in the repository: "+oneLine(text[nearest(owners, text, r[0])[0]:r[1]])))
		case kind == "other":
		case doc == "":
			bad = append(bad, lineMsg(line(r[0]), "a section sign with no document: "+oneLine(cited)))
		default:
			for _, n := range nums {
				if !docs[doc][n] {
					bad = append(bad, lineMsg(line(r[0]), "docs/"+doc+".md has no section "+n+": "+oneLine(cited)))
				}
			}
		}
	}
	return bad
}

// nearest is the last owner match before pos within reach, or nil.
func nearest(owners [][]int, text string, pos int) []int {
	var best []int
	for _, o := range owners {
		if o[1] > pos {
			break
		}
		best = o
	}
	if best == nil || len(continuation.ReplaceAllString(text[best[1]:pos], " ")) > reach {
		return nil
	}
	return best
}

func ownerKind(o []int) string {
	for i, k := range []string{"ours", "design", "spec", "other"} {
		if o[2+2*i] >= 0 {
			return k
		}
	}
	return ""
}

func lineMsg(n int, msg string) string { return "line " + strconv.Itoa(n) + ": " + msg }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// moduleRoot is the directory of go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// TestCitations walks the repository and fails on every citation of a
// document that is not in it, or of a section docs/*.md does not have.
func TestCitations(t *testing.T) {
	root := moduleRoot(t)
	docs := sections(t, filepath.Join(root, "docs"))
	self, _ := filepath.Abs("docs_test.go")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !textFile(d.Name()) || path == self {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 2<<20 {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		rel, _ := filepath.Rel(root, path)
		doc := ""
		if dir, name := filepath.Split(rel); dir == "docs"+string(filepath.Separator) && strings.HasSuffix(name, ".md") {
			doc = strings.TrimSuffix(name, ".md")
		}
		for _, msg := range citations(string(b), doc, docs) {
			t.Errorf("%s: %s", rel, msg)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.SkipAll) {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d files under %s: the walk is broken", checked, root)
	}
}

// TestCitationRules pins what the walk accepts and refuses.
func TestCitationRules(t *testing.T) {
	docs := map[string]map[string]bool{
		"architecture": {"4": true, "4.1": true, "12": true},
		"protocol":     {"1": true, "2": true, "2.5": true},
		"product":      {"8": true, "8.1": true, "8.2": true, "2.3": true, "2.5": true},
	}
	tests := []struct {
		name, text, self string
		bad              int
	}{
		{"ours", "// the post grain (docs/architecture.md §4.1)", "", 0},
		{"ours, two docs", "// (docs/architecture.md §4.1, docs/protocol.md §2.5)", "", 0},
		{"ours, a list", "// docs/product.md §8.1 and §8.2", "", 0},
		{"ours, a range", "/** Student / Faculty (docs/product.md §2.3–2.5). */", "", 0},
		{"ours, wrapped", "// sent again is safe (docs/architecture.md\n// §4.1): the client", "", 0},
		{"a markdown link", "see [protocol.md §2.5](protocol.md)", "architecture", 0},
		{"own section in a doc", "as §12 says", "architecture", 0},
		{"no such section", "// docs/architecture.md §4.9", "", 1},
		{"no such section in a list", "// docs/product.md §8.1, §8.7", "", 1},
		{"DESIGN", "// node hub (DESIGN §4.3)", "", 1},
		{"DESIGN wrapped", "// committer (DESIGN\n// §4.1, shared commits)", "", 1},
		{"spec", "// (spec §5)", "", 1},
		{"Spec", "/** Spec §8.1: a 401 signs out. */", "", 1},
		{"the spec's", "// The spec's (§5, §8.2) are written exactly", "", 1},
		{"DESIGN.md named", "// as DESIGN.md says", "", 1},
		{"product-spec named", "see /work/shared/spec/product-spec.md", "", 1},
		{"no document", "// the §8.1 message", "", 1},
		{"RFC", "// frames (RFC 6455 §5.2)", "", 0},
		{"GIF89a", "// labels (GIF89a §§ 17–26)", "", 0},
		{"spec as a word", "eventRun(ctx, spec.pace) // §3", "", 1},
		{"plain text", "no sections here; spec.pace and specs", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := citations(tt.text, tt.self, docs)
			if len(got) != tt.bad {
				t.Errorf("citations(%q) = %q, want %d complaints", tt.text, got, tt.bad)
			}
		})
	}
}
