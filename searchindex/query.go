package searchindex

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/google/uuid"

	"campus/domain"
)

// Query shaping.
const (
	maxWords = 8 // words of a query looked at
	// fuzzyMinRunes: words of posts and comments this long forgive one
	// typo (docs/product.md §5); shorter words must match exactly.
	fuzzyMinRunes = 5
	// Names and titles (people, groups) forgive more, as people type
	// names they have only heard: one typo from nameFuzzyMinRunes letters
	// ("Iyr" finds "Iyer"), two from nameFuzzy2MinRunes ("Chakrabroty").
	nameFuzzyMinRunes  = 3
	nameFuzzy2MinRunes = 8
	// In names, the word itself weighs exactBoost, a word it starts
	// nameCompletionBoost and a word a typo away fuzzyBoost (halved again
	// per edit by the fuzzy searcher), so that exact and prefix matches
	// rank above typo matches whatever the words' frequencies.
	exactBoost          = 4
	nameCompletionBoost = 1
	fuzzyBoost          = 0.4
)

// isName reports whether f's documents are named (people, groups), where
// typos are forgiven more and ranked below exact and prefix matches.
func isName(f kindFields) bool { return f.kind == domain.SearchUser || f.kind == domain.SearchGroup }

// fuzziness is how many edits a complete word w may be away from a term of
// f: 0 (exact only), 1 or 2.
func fuzziness(f kindFields, w string) int {
	n := utf8.RuneCountInString(w)
	switch {
	case !isName(f) && n >= fuzzyMinRunes:
		return 1
	case !isName(f):
		return 0
	case n >= nameFuzzy2MinRunes:
		return 2
	case n >= nameFuzzyMinRunes:
		return 1
	}
	return 0
}

// Hit is one search hit: what it is and how well it matched. Exact says
// its title or subtitle equals the query as the index knows them (results
// are re-checked against fresh rows when shown). A tag (Tags) has no ID:
// Tag names it.
type Hit struct {
	Kind  domain.SearchKind
	ID    uuid.UUID
	Tag   string
	Score float64
	Exact bool
}

type queryBuilder struct {
	text analysis.Analyzer
}

func newQueryBuilder(text analysis.Analyzer) *queryBuilder { return &queryBuilder{text: text} }

// parsed is a query after analysis.
type parsed struct {
	words []string
	// prefixLast: the last word may be unfinished (the query does not end
	// in a space), so it also matches as a prefix.
	prefixLast bool
	exact      string // domain.ExactKey of the query
}

func (qb *queryBuilder) parse(q string) parsed {
	if utf8.RuneCountInString(q) > domain.SearchMaxQueryRunes {
		q = string([]rune(q)[:domain.SearchMaxQueryRunes])
	}
	p := parsed{exact: domain.ExactKey(q)}
	last, _ := utf8.DecodeLastRuneInString(q)
	p.prefixLast = last != utf8.RuneError && !unicode.IsSpace(last)
	for _, tok := range qb.text.Analyze([]byte(q)) {
		if len(p.words) == maxWords {
			break
		}
		p.words = append(p.words, string(tok.Term))
	}
	// A one-letter word being typed after others narrows nothing yet.
	if n := len(p.words); n > 1 && p.prefixLast && utf8.RuneCountInString(p.words[n-1]) < minPrefix {
		p.words = p.words[:n-1]
	}
	return p
}

// kindQuery matches documents of one kind holding every word: each word
// as a term, with one typo forgiven from fuzzyMinRunes letters, and the last
// word also as a prefix while it is being typed.
func (x *Index) kindQuery(p parsed, f kindFields) (query.Query, error) {
	conj := make([]query.Query, 0, len(p.words))
	for i, w := range p.words {
		var q query.Query
		if p.prefixLast && i == len(p.words)-1 {
			var err error
			if q, err = x.prefixWordQuery(f, w); err != nil {
				return nil, err
			}
		} else {
			q = wordQuery(f, w)
		}
		conj = append(conj, q)
	}
	if len(conj) == 1 {
		return conj[0], nil
	}
	return bleve.NewConjunctionQuery(conj...), nil
}

// wordQuery matches a complete word: the term itself, or any term within
// fuzziness edits when the word is long enough to forgive a typo. (A fuzzy
// query that finds no other candidate is a plain term query.) In names the
// term itself is boosted well above its typo matches.
func wordQuery(f kindFields, w string) query.Query {
	tq := bleve.NewTermQuery(w)
	tq.SetField(f.text)
	edits := fuzziness(f, w)
	if edits == 0 {
		return tq
	}
	fq := bleve.NewFuzzyQuery(w) // edit distance 0 scores highest
	fq.SetField(f.text)
	fq.SetFuzziness(edits)
	if edits > 1 {
		// Two edits reach many terms: only those with the same first
		// letter are walked (a swap or a slip is rarely the first letter).
		fq.SetPrefix(1)
	}
	if !isName(f) {
		return fq
	}
	tq.SetBoost(exactBoost)
	fq.SetBoost(fuzzyBoost)
	return bleve.NewDisjunctionQuery(tq, fq)
}

// Prefix completion.
const (
	// minPrefix: a last word shorter than this is not completed (the overlay
	// searches from two characters).
	minPrefix = 2
	// maxCompletions: a word being typed also matches the most frequent
	// words it starts, at most this many. A short prefix stands for fewer
	// words than it could, the likeliest ones; each letter typed narrows
	// the set until it is complete.
	maxCompletions = 16
	// maxDictScan bounds the dictionary entries read to pick them, and
	// maxCandidates (the shortest: base words) how many are counted.
	maxDictScan   = 20_000
	maxCandidates = 128
	// completionBoost weighs a word that only starts with what was typed
	// below the word itself: "exam" ranks "exam" above "examination".
	completionBoost = 0.5
)

// prefixWordQuery matches the word being typed: as wordQuery does, or as
// the start of a longer word, picked from the term dictionary. A finished
// word few others start with so reads one posting list, not one per way of
// matching, and a short prefix a bounded number of them.
func (x *Index) prefixWordQuery(f kindFields, w string) (query.Query, error) {
	if utf8.RuneCountInString(w) < minPrefix {
		return wordQuery(f, w), nil
	}
	completions, err := x.completions(f.text, w)
	if err != nil {
		return nil, err
	}
	boost := completionBoost
	if isName(f) {
		boost = nameCompletionBoost
	}
	alts := []query.Query{wordQuery(f, w)}
	for _, t := range completions {
		tq := bleve.NewTermQuery(t)
		tq.SetField(f.text)
		tq.SetBoost(boost)
		alts = append(alts, tq)
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return bleve.NewDisjunctionQuery(alts...), nil
}

// completions lists the terms of field that start with prefix and are
// longer: all of them when few, else the maxCompletions in the most
// documents among the maxCandidates shortest.
func (x *Index) completions(field, prefix string) ([]string, error) {
	d, err := x.bi.FieldDictPrefix(field, []byte(prefix))
	if err != nil {
		return nil, fmt.Errorf("searchindex: dictionary: %w", err)
	}
	var terms []string
	for range maxDictScan {
		e, err := d.Next()
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("searchindex: dictionary: %w", err)
		}
		if e == nil {
			break
		}
		if e.Term != prefix {
			terms = append(terms, e.Term)
		}
	}
	if err := d.Close(); err != nil {
		return nil, fmt.Errorf("searchindex: dictionary: %w", err)
	}
	if len(terms) <= maxCompletions {
		return terms, nil
	}
	if len(terms) > maxCandidates {
		slices.SortStableFunc(terms, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
		terms = terms[:maxCandidates]
	}
	freq, err := x.docFreqs(field, terms)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(terms, func(a, b string) int { return cmp.Or(cmp.Compare(freq[b], freq[a]), strings.Compare(a, b)) })
	return terms[:maxCompletions], nil
}

// docFreqs counts the live documents holding each term in field. (The
// counts the term dictionary reports are not usable: zapx v16.2.8 reuses a
// postings list between dictionary entries without clearing it, so a term
// that follows a single-document term reads as single-document too.)
func (x *Index) docFreqs(field string, terms []string) (map[string]uint64, error) {
	ix, err := x.bi.Advanced()
	if err != nil {
		return nil, fmt.Errorf("searchindex: reader: %w", err)
	}
	r, err := ix.Reader()
	if err != nil {
		return nil, fmt.Errorf("searchindex: reader: %w", err)
	}
	defer r.Close()
	out := make(map[string]uint64, len(terms))
	for _, t := range terms {
		tfr, err := r.TermFieldReader(context.Background(), []byte(t), field, false, false, false)
		if err != nil {
			return nil, fmt.Errorf("searchindex: term %q: %w", t, err)
		}
		out[t] = tfr.Count()
		if err := tfr.Close(); err != nil {
			return nil, fmt.Errorf("searchindex: term %q: %w", t, err)
		}
	}
	return out, nil
}

func exactQuery(key string, kinds []kindFields) query.Query {
	qs := make([]query.Query, 0, len(kinds))
	for _, f := range kinds {
		tq := bleve.NewTermQuery(key)
		tq.SetField(f.exact)
		qs = append(qs, tq)
	}
	if len(qs) == 1 {
		return qs[0]
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// Search finds users, groups, posts and comments matching q, at most
// limit: first those whose title or subtitle equals q, then users, groups,
// posts and comments, each by relevance. Kinds are searched in that order
// and only until limit is reached, so a query matching many users never
// touches posts. Who may see a group or a post is for the caller to decide.
func (x *Index) Search(ctx context.Context, q string, limit int) ([]Hit, error) {
	return x.search(ctx, q, limit, allKinds)
}

// SearchUsers is Search over users only.
func (x *Index) SearchUsers(ctx context.Context, q string, limit int) ([]Hit, error) {
	return x.search(ctx, q, limit, []kindFields{userFields})
}

// SearchGroups is Search over groups only (the groups directory): exact
// names and handles first, then by relevance. Who may see a group is for
// the caller to decide.
func (x *Index) SearchGroups(ctx context.Context, q string, limit int) ([]Hit, error) {
	return x.search(ctx, q, limit, []kindFields{groupFields})
}

func (x *Index) search(ctx context.Context, q string, limit int, kinds []kindFields) ([]Hit, error) {
	if err := x.usable(); err != nil {
		return nil, err // closed, or rebuilding: not even from the cache
	}
	p := x.query.parse(q)
	if len(p.words) == 0 || limit <= 0 {
		return nil, nil
	}
	if x.cache == nil {
		return x.compute(ctx, p, limit, kinds)
	}
	// The kinds tell Search (all kinds) from SearchUsers and SearchGroups.
	key := fmt.Sprintf("%d|%s|%d|%t|%s", len(kinds), kinds[0].kind, limit, p.prefixLast, p.exact)
	hits, err := x.cache.get(key, func() ([]Hit, error) {
		// Shared with concurrent identical searches: one caller giving up
		// must not fail the others.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), computeTimeout)
		defer cancel()
		return x.compute(ctx, p, limit, kinds)
	})
	if err != nil {
		return nil, err
	}
	return slices.Clone(hits), nil
}

// computeTimeout bounds a (shared) search computation.
const computeTimeout = 10 * time.Second

// compute runs a search on the index (search caches it).
func (x *Index) compute(ctx context.Context, p parsed, limit int, kinds []kindFields) ([]Hit, error) {
	_, release, err := x.acquire() // x.bi stays this index until released
	if err != nil {
		return nil, err
	}
	defer release()
	hits, err := x.find(ctx, exactQuery(p.exact, kinds), limit, true)
	if err != nil {
		return nil, err
	}
	exact := make(map[uuid.UUID]bool, len(hits))
	exactPerKind := map[domain.SearchKind]int{}
	for _, h := range hits {
		exact[h.ID] = true
		exactPerKind[h.Kind]++
	}
	for _, f := range kinds {
		need := limit - len(hits)
		if need <= 0 {
			break
		}
		q, err := x.kindQuery(p, f)
		if err != nil {
			return nil, err
		}
		more, err := x.find(ctx, q, need+exactPerKind[f.kind], false)
		if err != nil {
			return nil, err
		}
		for _, h := range more {
			if exact[h.ID] {
				continue
			}
			if len(hits) == limit {
				break
			}
			hits = append(hits, h)
		}
	}
	// Exact hits came from one query over all kinds: put them in kind order
	// too. Equal scores (common with short texts) go by id, so the same
	// search answers the same order whatever the index's segments.
	slices.SortStableFunc(hits, func(a, b Hit) int {
		return cmp.Or(domain.CompareSearch(a.ranking(), b.ranking()), slices.Compare(a.ID[:], b.ID[:]))
	})
	return hits, nil
}

func (h Hit) ranking() domain.SearchRanking {
	return domain.SearchRanking{Kind: h.Kind, Exact: h.Exact, Score: h.Score}
}

func (x *Index) find(ctx context.Context, q query.Query, size int, exact bool) ([]Hit, error) {
	// One more than asked shows whether equal scores straddle the cut.
	// Then the top size must be chosen by id as well (as compute orders
	// ties), or which of them make it would depend on the index's segments
	// and a smaller limit could answer a hit that is not first in a larger
	// one. Sorting by id always costs every match's id: only then.
	req := bleve.NewSearchRequestOptions(q, size+1, 0, false)
	res, err := x.bi.SearchInContext(ctx, req)
	if err != nil {
		x.suspect(ctx)
		return nil, fmt.Errorf("searchindex: search: %w", err)
	}
	if len(res.Hits) > size && size > 0 && res.Hits[size].Score == res.Hits[size-1].Score {
		req = bleve.NewSearchRequestOptions(q, size, 0, false)
		req.SortBy([]string{"-_score", "_id"})
		if res, err = x.bi.SearchInContext(ctx, req); err != nil {
			return nil, fmt.Errorf("searchindex: search: %w", err)
		}
	}
	hits := res.Hits
	if len(hits) > size {
		hits = hits[:size]
	}
	out := make([]Hit, 0, len(hits))
	for _, dm := range hits {
		kind, id, err := parseDocID(dm.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, Hit{Kind: kind, ID: id, Score: dm.Score, Exact: exact})
	}
	return out, nil
}
