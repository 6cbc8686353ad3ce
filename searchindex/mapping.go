package searchindex

import (
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/google/uuid"

	"campus/domain"
	"campus/persistence"
)

// schemaVersion names the layout of the documents below. An index built
// with another version is rebuilt at open; bump it with every change to the
// analyzers or fields. 4: posts' tags (postTagsField); "3" is the mentions
// branch's handles, so an index of either is rebuilt with both.
const schemaVersion = "4"

// textAnalyzer splits words, folds accents and lower-cases.
const textAnalyzer = "campus_text"

// Every kind has its own fields, so a query for one kind needs no filter and
// relevance statistics are per kind:
//
//	text   the searchable words (textAnalyzer)
//	exact  the result's title and subtitle as domain.ExactKey forms, one
//	       term each, so exact matches are found whatever their score
//
//	pt     (posts only) the post's tags, one term each (domain.ExtractTags),
//	       whose dictionary the search overlay's tag results come from
//
// Prefixes are matched at query time from the term dictionary (see
// prefixWordQuery) rather than indexed as edge n-grams, which measured
// about 40% of indexing time. Nothing is stored: results are shown from
// Postgres, which also drops anything deleted since it was indexed.
type kindFields struct {
	kind        domain.SearchKind
	docPrefix   string
	text, exact string
}

var (
	userFields    = kindFields{domain.SearchUser, "u:", "u", "ux"}
	postFields    = kindFields{domain.SearchPost, "p:", "p", "px"}
	commentFields = kindFields{domain.SearchComment, "c:", "c", "cx"}
	groupFields   = kindFields{domain.SearchGroup, "g:", "g", "gx"}
	// allKinds are the kinds of the search overlay, in the order it ranks
	// them (domain.SearchKind.Rank): people and groups before what was
	// written. The groups directory searches groups alone.
	allKinds  = []kindFields{userFields, groupFields, postFields, commentFields}
	everyKind = allKinds
)

// postTagsField holds a post's tags.
const postTagsField = "pt"

func fieldsOf(entity string) (kindFields, bool) {
	switch entity {
	case persistence.EntityUser:
		return userFields, true
	case persistence.EntityPost:
		return postFields, true
	case persistence.EntityComment:
		return commentFields, true
	case persistence.EntityGroup:
		return groupFields, true
	}
	return kindFields{}, false
}

func (f kindFields) docID(id uuid.UUID) string { return f.docPrefix + id.String() }

// parseDocID splits a document id into its kind and entity id.
func parseDocID(docID string) (domain.SearchKind, uuid.UUID, error) {
	for _, f := range everyKind {
		if rest, ok := strings.CutPrefix(docID, f.docPrefix); ok {
			id, err := uuid.Parse(rest)
			if err != nil {
				return "", uuid.Nil, fmt.Errorf("searchindex: bad document id %q: %w", docID, err)
			}
			return f.kind, id, nil
		}
	}
	return "", uuid.Nil, fmt.Errorf("searchindex: bad document id %q", docID)
}

// newMapping declares the analyzers. Documents are built by hand (see
// docBuilder) rather than mapped by reflection: it is faster and keeps the
// field layout in one place.
func newMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	if err := im.AddCustomAnalyzer(textAnalyzer, map[string]any{
		"type":          custom.Name,
		"tokenizer":     wordsTokenizer,
		"token_filters": []string{foldFilter},
	}); err != nil {
		return nil, fmt.Errorf("searchindex: text analyzer: %w", err)
	}
	im.DefaultAnalyzer = textAnalyzer
	im.DefaultMapping = bleve.NewDocumentDisabledMapping()
	im.IndexDynamic = false
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	return im, nil
}

// docBuilder turns rows into index documents.
type docBuilder struct {
	text, exact analysis.Analyzer
}

func newDocBuilder(im *mapping.IndexMappingImpl) (*docBuilder, error) {
	b := &docBuilder{
		text:  im.AnalyzerNamed(textAnalyzer),
		exact: im.AnalyzerNamed(keyword.Name),
	}
	if b.text == nil || b.exact == nil {
		return nil, fmt.Errorf("searchindex: analyzers missing from the mapping")
	}
	return b, nil
}

// indexOnly indexes terms with frequencies and norms for scoring; nothing
// stored, no term vectors, no doc values.
const indexOnly = index.IndexField

func (b *docBuilder) doc(f kindFields, id uuid.UUID, text string, exact ...string) *document.Document {
	d := document.NewDocument(f.docID(id))
	d.AddField(document.NewTextFieldCustom(f.text, nil, []byte(text), indexOnly, b.text))
	for _, e := range exact {
		if k := domain.ExactKey(e); k != "" {
			d.AddField(document.NewTextFieldCustom(f.exact, nil, []byte(k), indexOnly|index.SkipFreqNorm, b.exact))
		}
	}
	return d
}

// userDoc indexes a user's name, handle, university ID, department, course
// and batch; the exact forms are the result's title and subtitle, and the
// handle with and without its @ (searching "bikramsen" or "@bikramsen"
// finds Bikram Sen first).
func (b *docBuilder) userDoc(u *persistence.User) *document.Document {
	text := strings.Join([]string{u.Name, u.Handle, u.UniversityID, u.Department, u.Course, u.Batch}, " ")
	subtitle := domain.UserSearchSubtitle(domain.Role(u.Role), u.UniversityID, u.Department)
	if u.Handle == "" {
		return b.doc(userFields, u.ID, text, u.Name, subtitle)
	}
	return b.doc(userFields, u.ID, text, u.Name, subtitle, u.Handle, "@"+u.Handle)
}

// groupDoc indexes a group's name, handle and description; the exact forms
// are its name and handle, so typing either finds it first.
func (b *docBuilder) groupDoc(g *persistence.GroupText) *document.Document {
	text := strings.Join([]string{g.Name, g.Handle, strings.ReplaceAll(g.Handle, "-", " "), g.Description}, " ")
	return b.doc(groupFields, g.ID, text, g.Name, g.Handle)
}

// textDoc indexes a post's or comment's content. Its title is the snippet;
// only a content short enough to be its own snippet gets an exact form (a
// cut snippet ends in "..." and equals no query anyone types), which keeps
// one unique term per long post out of the dictionary. The subtitle (the
// author) is checked for exactness when results are shown.
//
// A post's tags are terms of their own (postTagsField).
func (b *docBuilder) textDoc(f kindFields, t persistence.SearchText) *document.Document {
	title := domain.SearchSnippet(t.Content)
	var d *document.Document
	if strings.HasSuffix(title, domain.SearchEllipsis) && title != domain.CollapseSpace(t.Content) {
		d = b.doc(f, t.ID, t.Content)
	} else {
		d = b.doc(f, t.ID, t.Content, title)
	}
	if f.kind == domain.SearchPost {
		for _, tag := range domain.ExtractTags(t.Content) {
			d.AddField(document.NewTextFieldCustom(postTagsField, nil, []byte(tag), indexOnly|index.SkipFreqNorm, b.exact))
		}
	}
	return d
}
