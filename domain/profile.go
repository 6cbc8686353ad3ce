package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Profile limits. The product names none for these fields (docs/product.md
// §5); these fit the screens of docs/product.md §2.14 and keep one profile row
// small.
const (
	MaxBioLength            = 500
	MaxLocationLength       = 100
	MaxEducationField       = 100 // degree, institution
	MaxEducationYears       = 50  // "2020 - 2024"
	MaxSkills               = 30
	MaxSkillName            = 50
	MaxAchievements         = 30
	MaxAchievementTitle     = 100
	MaxAchievementDesc      = 500
	MaxAchievementYear      = 20
	MaxInterests            = 30
	MaxInterestLength       = 50
	MaxExperience           = 20
	MaxExperienceField      = 100 // title, organization, location
	MaxExperienceDate       = 30  // start and end dates, as typed
	MaxExperienceDesc       = 1000
	DefaultSkillProficiency = 50
	MinSkillProficiency     = 0
	MaxSkillProficiency     = 100
)

// Profile messages.
const (
	MsgNameRequired         = "Name is required"
	MsgProficiencyNotNumber = "Skill proficiency must be a number from 0 to 100"
	MsgNotYourImage         = "Use an image you uploaded with the avatar or cover call"
)

// tooLong is the message for a text field over its cap.
func tooLong(label string, n int) string {
	return fmt.Sprintf("%s must be at most %d characters long", label, n)
}

// tooMany is the message for a list over its cap.
func tooMany(label string, n int) string {
	return fmt.Sprintf("You can add at most %d %s", n, label)
}

// Education is a profile's education block (docs/product.md §3).
type Education struct {
	Degree      string `json:"degree"`
	Institution string `json:"institution"`
	Years       string `json:"years"`
}

// Skill is one skill with its proficiency, 0-100.
type Skill struct {
	Name        string `json:"name"`
	Proficiency int    `json:"proficiency"`
}

// Achievement is one entry of "Achievements & Awards".
type Achievement struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Year        string `json:"year"`
}

// Experience is one entry of a work or study history.
type Experience struct {
	Title        string `json:"title"`
	Organization string `json:"organization"`
	Location     string `json:"location"`
	StartDate    string `json:"startDate"`
	EndDate      string `json:"endDate"`
	Description  string `json:"description"`
}

// Text is a string field that also accepts a JSON number (a year typed into
// a number input arrives as 2024) and treats null as empty.
type Text string

// UnmarshalJSON accepts a string, a number or null.
func (t *Text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*t = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = Text(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return &json.UnmarshalTypeError{Value: "non-text value", Type: reflect.TypeFor[string]()}
	}
	*t = Text(n.String())
	return nil
}

// Proficiency is a skill's proficiency as sent: a number, a numeric string
// (docs/product.md §5: "coerced to a number"), or absent/null/"" for the default 50.
// Anything else is remembered as bad and reported by validation, so the
// error names the field.
type Proficiency struct {
	value float64
	set   bool
	bad   bool
}

// UnmarshalJSON never fails: bad input is reported by Validate.
func (p *Proficiency) UnmarshalJSON(b []byte) error {
	*p = Proficiency{}
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	raw := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &raw); err != nil {
			p.bad = true
			return nil
		}
		raw = strings.TrimSpace(raw)
		if raw == "" {
			return nil
		}
	}
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		p.bad = true
		return nil
	}
	p.value, p.set = v, true
	return nil
}

// resolve is the stored proficiency: rounded and clamped to 0-100, the
// default when absent; ok is false for a non-number.
func (p Proficiency) resolve() (int, bool) {
	switch {
	case p.bad:
		return 0, false
	case !p.set:
		return DefaultSkillProficiency, true
	}
	v := math.Round(p.value)
	return int(max(MinSkillProficiency, min(MaxSkillProficiency, v))), true
}

// SkillInput is one skill as sent.
type SkillInput struct {
	Name        Text        `json:"name"`
	Proficiency Proficiency `json:"proficiency"`
}

// AchievementInput is one achievement as sent.
type AchievementInput struct {
	Title       Text `json:"title"`
	Description Text `json:"description"`
	Year        Text `json:"year"`
}

// EducationInput is the education block as sent.
type EducationInput struct {
	Degree      Text `json:"degree"`
	Institution Text `json:"institution"`
	Years       Text `json:"years"`
}

// ExperienceInput is one experience entry as sent; company is accepted for
// organization.
type ExperienceInput struct {
	Title        Text `json:"title"`
	Organization Text `json:"organization"`
	Company      Text `json:"company"`
	Location     Text `json:"location"`
	StartDate    Text `json:"startDate"`
	EndDate      Text `json:"endDate"`
	Description  Text `json:"description"`
}

// Interests accepts the spec's comma-separated text ("chess, music") as
// well as an array of strings. Validation splits, trims and drops empties.
type Interests struct {
	items []string
	bad   bool
}

// UnmarshalJSON accepts a string, an array of strings (or numbers) or null.
func (in *Interests) UnmarshalJSON(b []byte) error {
	*in = Interests{}
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		in.items = strings.Split(s, ",")
		return nil
	}
	var list []Text
	if err := json.Unmarshal(b, &list); err != nil {
		in.bad = true
		return nil
	}
	for _, t := range list {
		// An entry may itself hold commas when typed into one box.
		in.items = append(in.items, strings.Split(string(t), ",")...)
	}
	return nil
}

// NewInterests is interests sent as a list.
func NewInterests(items ...string) Interests { return Interests{items: items} }

// ProfileInput is the body of PATCH /profile and PATCH /users/me. Absent
// (or null) fields stay as they are. Avatar and cover photo change only
// through their upload calls, role and university ID never.
type ProfileInput struct {
	Name         *Text               `json:"name"`
	Bio          *Text               `json:"bio"`
	Location     *Text               `json:"location"`
	Education    *EducationInput     `json:"education"`
	Skills       *[]SkillInput       `json:"skills"`
	Achievements *[]AchievementInput `json:"achievements"`
	Interests    *Interests          `json:"interests"`
	Experience   *[]ExperienceInput  `json:"experience"`
}

// Profile sections that a PUT call replaces on its own.
const (
	SectionEducation  = "education"
	SectionExperience = "experience"
	SectionSkills     = "skills"
)

var sectionRequired = map[string]string{
	SectionEducation:  "Education is required",
	SectionExperience: "Experience is required",
	SectionSkills:     "Skills are required",
}

// Only keeps just one section of the input, which must be present: a PUT
// of the section replaces it, and an absent one would silently do nothing.
func (in ProfileInput) Only(section string) (ProfileInput, error) {
	var out ProfileInput
	present := false
	switch section {
	case SectionEducation:
		out.Education, present = in.Education, in.Education != nil
	case SectionExperience:
		out.Experience, present = in.Experience, in.Experience != nil
	case SectionSkills:
		out.Skills, present = in.Skills, in.Skills != nil
	default:
		return ProfileInput{}, Invalid("Unknown profile section")
	}
	if !present {
		return ProfileInput{}, InvalidField(section, sectionRequired[section])
	}
	return out, nil
}

// ProfilePatch is a validated ProfileInput: nil means "leave as it is".
type ProfilePatch struct {
	Name         *string
	Bio          *string
	Location     *string
	Education    *Education
	Skills       *[]Skill
	Achievements *[]Achievement
	Interests    *[]string
	Experience   *[]Experience
}

// TouchesUser reports whether the patch changes columns of the user row
// (as opposed to the profile's extras).
func (p ProfilePatch) TouchesUser() bool {
	return p.Name != nil || p.Bio != nil || p.Location != nil
}

// Validate trims every text, applies the caps and returns the first problem
// as a 400 naming its field.
func (in ProfileInput) Validate() (ProfilePatch, error) {
	var p ProfilePatch
	if in.Name != nil {
		name, err := ValidateName(string(*in.Name))
		if err != nil {
			return ProfilePatch{}, err
		}
		p.Name = &name
	}
	if in.Bio != nil {
		bio, err := ValidateBio(string(*in.Bio))
		if err != nil {
			return ProfilePatch{}, err
		}
		p.Bio = &bio
	}
	if in.Location != nil {
		loc, err := capped("location", "Location", string(*in.Location), MaxLocationLength)
		if err != nil {
			return ProfilePatch{}, err
		}
		p.Location = &loc
	}
	if in.Education != nil {
		e, err := in.Education.Validate()
		if err != nil {
			return ProfilePatch{}, err
		}
		p.Education = &e
	}
	if in.Skills != nil {
		s, err := ValidateSkills(*in.Skills)
		if err != nil {
			return ProfilePatch{}, err
		}
		p.Skills = &s
	}
	if in.Achievements != nil {
		a, err := ValidateAchievements(*in.Achievements)
		if err != nil {
			return ProfilePatch{}, err
		}
		p.Achievements = &a
	}
	if in.Interests != nil {
		i, err := in.Interests.Validate()
		if err != nil {
			return ProfilePatch{}, err
		}
		p.Interests = &i
	}
	if in.Experience != nil {
		e, err := ValidateExperience(*in.Experience)
		if err != nil {
			return ProfilePatch{}, err
		}
		p.Experience = &e
	}
	return p, nil
}

// clean trims s and removes NUL characters, which Postgres text refuses.
func clean(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, "\x00", ""))
}

// capped cleans s and refuses it when longer than n characters.
func capped(field, label, s string, n int) (string, error) {
	s = clean(s)
	if utf8.RuneCountInString(s) > n {
		return "", InvalidField(field, tooLong(label, n))
	}
	return s, nil
}

// ValidateName checks a display name: required, at most MaxNameLength.
func ValidateName(s string) (string, error) {
	s = clean(s)
	if s == "" {
		return "", InvalidField("name", MsgNameRequired)
	}
	if utf8.RuneCountInString(s) > MaxNameLength {
		return "", InvalidField("name", MsgNameTooLong)
	}
	return s, nil
}

// ValidateBio checks a bio: at most MaxBioLength characters.
func ValidateBio(s string) (string, error) {
	return capped("bio", "Bio", s, MaxBioLength)
}

// Validate checks the education block.
func (in EducationInput) Validate() (Education, error) {
	var e Education
	var err error
	if e.Degree, err = capped("education.degree", "Degree", string(in.Degree), MaxEducationField); err != nil {
		return Education{}, err
	}
	if e.Institution, err = capped("education.institution", "Institution", string(in.Institution), MaxEducationField); err != nil {
		return Education{}, err
	}
	if e.Years, err = capped("education.years", "Years", string(in.Years), MaxEducationYears); err != nil {
		return Education{}, err
	}
	return e, nil
}

// ValidateSkills checks a skill list. Skills without a name (an empty row
// left by '+ Add Skill') are dropped; proficiency is coerced to a number and
// clamped to 0-100, 50 when absent.
func ValidateSkills(in []SkillInput) ([]Skill, error) {
	out := make([]Skill, 0, len(in))
	for i, s := range in {
		name, err := capped(fmt.Sprintf("skills[%d].name", i), "Skill name", string(s.Name), MaxSkillName)
		if err != nil {
			return nil, err
		}
		if name == "" {
			continue
		}
		p, ok := s.Proficiency.resolve()
		if !ok {
			return nil, InvalidField(fmt.Sprintf("skills[%d].proficiency", i), MsgProficiencyNotNumber)
		}
		out = append(out, Skill{Name: name, Proficiency: p})
	}
	if len(out) > MaxSkills {
		return nil, InvalidField("skills", tooMany("skills", MaxSkills))
	}
	return out, nil
}

// ValidateAchievements checks an achievement list; entries with nothing in
// them are dropped.
func ValidateAchievements(in []AchievementInput) ([]Achievement, error) {
	out := make([]Achievement, 0, len(in))
	for i, a := range in {
		var v Achievement
		var err error
		if v.Title, err = capped(fmt.Sprintf("achievements[%d].title", i), "Achievement title", string(a.Title), MaxAchievementTitle); err != nil {
			return nil, err
		}
		if v.Description, err = capped(fmt.Sprintf("achievements[%d].description", i), "Achievement description", string(a.Description), MaxAchievementDesc); err != nil {
			return nil, err
		}
		if v.Year, err = capped(fmt.Sprintf("achievements[%d].year", i), "Achievement year", string(a.Year), MaxAchievementYear); err != nil {
			return nil, err
		}
		if v == (Achievement{}) {
			continue
		}
		out = append(out, v)
	}
	if len(out) > MaxAchievements {
		return nil, InvalidField("achievements", tooMany("achievements", MaxAchievements))
	}
	return out, nil
}

// Validate splits, trims and de-duplicates (ignoring case) the interests,
// dropping empties.
func (in Interests) Validate() ([]string, error) {
	if in.bad {
		return nil, InvalidField("interests", "Interests must be text separated by commas or a list of texts")
	}
	out := make([]string, 0, len(in.items))
	seen := make(map[string]bool, len(in.items))
	for _, raw := range in.items {
		s := clean(raw)
		if s == "" {
			continue
		}
		if utf8.RuneCountInString(s) > MaxInterestLength {
			return nil, InvalidField("interests", tooLong("Each interest", MaxInterestLength))
		}
		key := strings.ToLower(s)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, s)
	}
	if len(out) > MaxInterests {
		return nil, InvalidField("interests", tooMany("interests", MaxInterests))
	}
	return out, nil
}

// ValidateExperience checks an experience list; empty entries are dropped.
func ValidateExperience(in []ExperienceInput) ([]Experience, error) {
	out := make([]Experience, 0, len(in))
	for i, x := range in {
		org := x.Organization
		if clean(string(org)) == "" {
			org = x.Company
		}
		f := func(name string) string { return fmt.Sprintf("experience[%d].%s", i, name) }
		var v Experience
		var err error
		if v.Title, err = capped(f("title"), "Title", string(x.Title), MaxExperienceField); err != nil {
			return nil, err
		}
		if v.Organization, err = capped(f("organization"), "Organization", string(org), MaxExperienceField); err != nil {
			return nil, err
		}
		if v.Location, err = capped(f("location"), "Location", string(x.Location), MaxExperienceField); err != nil {
			return nil, err
		}
		if v.StartDate, err = capped(f("startDate"), "Start date", string(x.StartDate), MaxExperienceDate); err != nil {
			return nil, err
		}
		if v.EndDate, err = capped(f("endDate"), "End date", string(x.EndDate), MaxExperienceDate); err != nil {
			return nil, err
		}
		if v.Description, err = capped(f("description"), "Description", string(x.Description), MaxExperienceDesc); err != nil {
			return nil, err
		}
		if v == (Experience{}) {
			continue
		}
		out = append(out, v)
	}
	if len(out) > MaxExperience {
		return nil, InvalidField("experience", tooMany("experience entries", MaxExperience))
	}
	return out, nil
}

// ImageRef is a reference to an uploaded image as a client sends it back:
// {url, publicId}, or a plain url string (docs/product.md §3).
type ImageRef struct {
	URL      string `json:"url"`
	PublicID string `json:"publicId"`
}

// UnmarshalJSON accepts an object, a url string or null.
func (r *ImageRef) UnmarshalJSON(b []byte) error {
	*r = ImageRef{}
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &r.URL)
	}
	type plain ImageRef
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*r = ImageRef(p)
	return nil
}

// IsZero reports whether nothing was referenced.
func (r ImageRef) IsZero() bool {
	return strings.TrimSpace(r.URL) == "" && strings.TrimSpace(r.PublicID) == ""
}

// ProfileSetupInput is the body of POST /profile/setup (docs/product.md §3 "Profile
// setup payload"). Avatar and cover photo refer to files already uploaded
// through the avatar and cover calls.
type ProfileSetupInput struct {
	Name       Text     `json:"name"`
	Role       string   `json:"role"`
	Bio        *Text    `json:"bio"`
	Avatar     ImageRef `json:"avatar"`
	CoverPhoto ImageRef `json:"coverPhoto"`
}

// ProfileSetup is a validated setup. An empty Name keeps the signup name
// ("Skip profile setup" builds the profile from the signup info).
type ProfileSetup struct {
	Name       string
	Bio        *string
	Avatar     ImageRef
	CoverPhoto ImageRef
}

// Validate checks the setup payload. The role is checked for shape only:
// it was chosen at signup and does not change here.
func (in ProfileSetupInput) Validate() (ProfileSetup, error) {
	var s ProfileSetup
	if name := clean(string(in.Name)); name != "" {
		n, err := ValidateName(name)
		if err != nil {
			return ProfileSetup{}, err
		}
		s.Name = n
	}
	if _, err := ParseRole(in.Role); err != nil {
		return ProfileSetup{}, err
	}
	if in.Bio != nil {
		bio, err := ValidateBio(string(*in.Bio))
		if err != nil {
			return ProfileSetup{}, err
		}
		s.Bio = &bio
	}
	s.Avatar = ImageRef{URL: strings.TrimSpace(in.Avatar.URL), PublicID: strings.TrimSpace(in.Avatar.PublicID)}
	s.CoverPhoto = ImageRef{URL: strings.TrimSpace(in.CoverPhoto.URL), PublicID: strings.TrimSpace(in.CoverPhoto.PublicID)}
	return s, nil
}
