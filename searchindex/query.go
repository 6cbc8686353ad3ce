package searchindex

import (
	"context"
	"fmt"
	"slices"
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
	// fuzzyMinRunes: words this long forgive one typo (spec: "one typo
	// forgiven on words of 5+ letters"); shorter words must match exactly.
	fuzzyMinRunes = 5
)

// Hit is one search hit: what it is and how well it matched. Exact says
// its title or subtitle equals the query as the index knows them (results
// are re-checked against fresh rows when shown).
type Hit struct {
	Kind  domain.SearchKind
	ID    uuid.UUID
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
	if n := len(p.words); n > 1 && p.prefixLast && utf8.RuneCountInString(p.words[n-1]) < minGram {
		p.words = p.words[:n-1]
	}
	return p
}

// kindQuery matches documents of one kind holding every word: each word
// as a term, with one typo forgiven from fuzzyMinRunes letters, and the last
// word also as a prefix while it is being typed.
func (p parsed) kindQuery(f kindFields) query.Query {
	conj := make([]query.Query, 0, len(p.words))
	for i, w := range p.words {
		conj = append(conj, wordQuery(f, w, p.prefixLast && i == len(p.words)-1))
	}
	if len(conj) == 1 {
		return conj[0]
	}
	return bleve.NewConjunctionQuery(conj...)
}

func wordQuery(f kindFields, w string, prefix bool) query.Query {
	n := utf8.RuneCountInString(w)
	var alts []query.Query
	if n >= fuzzyMinRunes {
		fq := bleve.NewFuzzyQuery(w) // edit distance 0 (the word itself) scores highest
		fq.SetField(f.text)
		fq.SetFuzziness(1)
		alts = append(alts, fq)
	} else {
		tq := bleve.NewTermQuery(w)
		tq.SetField(f.text)
		alts = append(alts, tq)
	}
	if prefix {
		switch {
		case n >= minGram && n <= maxGram:
			pq := bleve.NewTermQuery(w)
			pq.SetField(f.prefix)
			alts = append(alts, pq)
		case n > maxGram:
			pq := bleve.NewPrefixQuery(w)
			pq.SetField(f.text)
			alts = append(alts, pq)
		}
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return bleve.NewDisjunctionQuery(alts...)
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

// Search finds users, posts and comments matching q, at most limit: first
// those whose title or subtitle equals q, then users, posts and comments,
// each by relevance. Kinds are searched in that order and only until limit
// is reached, so a query matching many users never touches posts.
func (x *Index) Search(ctx context.Context, q string, limit int) ([]Hit, error) {
	return x.search(ctx, q, limit, allKinds)
}

// SearchUsers is Search over users only.
func (x *Index) SearchUsers(ctx context.Context, q string, limit int) ([]Hit, error) {
	return x.search(ctx, q, limit, []kindFields{userFields})
}

func (x *Index) search(ctx context.Context, q string, limit int, kinds []kindFields) ([]Hit, error) {
	if x.closed.Load() {
		return nil, ErrClosed
	}
	p := x.query.parse(q)
	if len(p.words) == 0 || limit <= 0 {
		return nil, nil
	}
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
		more, err := x.find(ctx, p.kindQuery(f), need+exactPerKind[f.kind], false)
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
	// too. The rest is already in order.
	slices.SortStableFunc(hits, func(a, b Hit) int { return domain.CompareSearch(a.ranking(), b.ranking()) })
	return hits, nil
}

func (h Hit) ranking() domain.SearchRanking {
	return domain.SearchRanking{Kind: h.Kind, Exact: h.Exact, Score: h.Score}
}

func (x *Index) find(ctx context.Context, q query.Query, size int, exact bool) ([]Hit, error) {
	req := bleve.NewSearchRequestOptions(q, size, 0, false)
	res, err := x.bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("searchindex: search: %w", err)
	}
	out := make([]Hit, 0, len(res.Hits))
	for _, dm := range res.Hits {
		kind, id, err := parseDocID(dm.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, Hit{Kind: kind, ID: id, Score: dm.Score, Exact: exact})
	}
	return out, nil
}
