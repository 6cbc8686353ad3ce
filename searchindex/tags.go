package searchindex

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"campus/domain"
)

// Tags finds the tags a search query may name (domain.TagQueryKey: "#chess",
// "chess" and "Chess" all name chess): that tag and the tags it starts, at
// most limit, the tag itself first, then the most used. A hit's Tag is the
// tag and its Score how many posts of the index hold it (every post, whoever
// may read it: counting what a reader may list is for the caller). Tags
// come from the dictionary of the posts' tag field, so a query costs a
// dictionary walk and a count per candidate, never a posting list.
func (x *Index) Tags(ctx context.Context, q string, limit int) ([]Hit, error) {
	if err := x.usable(); err != nil {
		return nil, err
	}
	key := domain.TagQueryKey(q)
	if key == "" || limit <= 0 {
		return nil, nil
	}
	if x.cache == nil {
		return x.tags(key, limit)
	}
	hits, err := x.cache.get(fmt.Sprintf("tags|%d|%s", limit, key), func() ([]Hit, error) { return x.tags(key, limit) })
	if err != nil {
		return nil, err
	}
	return slices.Clone(hits), nil
}

func (x *Index) tags(key string, limit int) ([]Hit, error) {
	bi, release, err := x.acquire() // x.bi stays this index until released
	if err != nil {
		return nil, err
	}
	defer release()
	// The tag and the tags it starts, as the dictionary has them: most
	// queries name no tag, and then nothing more is read.
	d, err := bi.FieldDictPrefix(postTagsField, []byte(key))
	if err != nil {
		return nil, fmt.Errorf("searchindex: tags: %w", err)
	}
	var terms []string
	for range maxDictScan {
		e, err := d.Next()
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("searchindex: tags: %w", err)
		}
		if e == nil {
			break
		}
		terms = append(terms, e.Term)
	}
	if err := d.Close(); err != nil {
		return nil, fmt.Errorf("searchindex: tags: %w", err)
	}
	if len(terms) == 0 {
		return nil, nil
	}
	// Many: the shortest are the likeliest (as completions picks them).
	if len(terms) > maxCandidates {
		slices.SortStableFunc(terms, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
		terms = terms[:maxCandidates]
	}
	freq, err := x.docFreqs(postTagsField, terms)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(terms))
	for _, t := range terms {
		if freq[t] > 0 {
			hits = append(hits, Hit{Kind: domain.SearchTag, Tag: t, Score: float64(freq[t]), Exact: t == key})
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if a.Exact != b.Exact {
			if a.Exact {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Tag, b.Tag))
	})
	return hits[:min(len(hits), limit)], nil
}
