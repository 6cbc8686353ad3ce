package searchindex

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/registry"
)

// Campus's own tokenizer and folding filter, registered with Bleve so the
// stored mapping names them. Both are built for indexing speed: the
// tokenizer is a single pass that allocates once per field, and folding
// touches only the tokens that are not plain ASCII.
const (
	wordsTokenizer = "campus_words"
	foldFilter     = "campus_fold"
)

func init() {
	if err := registry.RegisterTokenizer(wordsTokenizer, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return wordTokenizer{}, nil
	}); err != nil {
		panic(err)
	}
	if err := registry.RegisterTokenFilter(foldFilter, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return foldTokenFilter{}, nil
	}); err != nil {
		panic(err)
	}
}

// isWordRune: words are runs of letters, digits and combining marks (the
// vowel signs of Indic scripts are marks). Everything else separates them,
// so "BWU/BCA/20/123" is four words and "Asha's" two.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

type wordTokenizer struct{}

func (wordTokenizer) Tokenize(input []byte) analysis.TokenStream {
	// One allocation for the tokens, sized by a first counting pass.
	n, in := 0, false
	for i := 0; i < len(input); {
		r, size := rune(input[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(input[i:])
		}
		w := isWordRune(r)
		if w && !in {
			n++
		}
		in = w
		i += size
	}
	if n == 0 {
		return nil
	}
	tokens := make([]analysis.Token, 0, n)
	start := -1
	for i := 0; i <= len(input); {
		w, size := false, 1
		if i < len(input) {
			r := rune(input[i])
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRune(input[i:])
			}
			w = isWordRune(r)
		}
		switch {
		case w && start < 0:
			start = i
		case !w && start >= 0:
			tokens = append(tokens, analysis.Token{
				Term: input[start:i], Start: start, End: i, Position: len(tokens) + 1, Type: analysis.AlphaNumeric,
			})
			start = -1
		}
		i += size
	}
	out := make(analysis.TokenStream, len(tokens))
	for i := range tokens {
		out[i] = &tokens[i]
	}
	return out
}

// foldTokenFilter lower-cases and folds accents ("José" → "jose", "Straße"
// → "strasse"). Plain ASCII is lower-cased in place.
type foldTokenFilter struct{}

var folder = asciifolding.New()

func (foldTokenFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, t := range input {
		ascii := true
		for _, c := range t.Term {
			if c >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		if ascii {
			for i, c := range t.Term {
				if 'A' <= c && c <= 'Z' {
					t.Term[i] = c + ('a' - 'A')
				}
			}
			continue
		}
		t.Term = bytes.ToLower(folder.Filter(t.Term))
	}
	return input
}
