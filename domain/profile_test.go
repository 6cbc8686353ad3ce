package domain

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func decodeProfile(t *testing.T, body string) ProfileInput {
	t.Helper()
	var in ProfileInput
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return in
}

func TestProfileInputValid(t *testing.T) {
	tests := []struct {
		name string
		body string
		want ProfilePatch
	}{
		{"empty patch changes nothing", `{}`, ProfilePatch{}},
		{"nulls change nothing", `{"name":null,"skills":null,"interests":null}`, ProfilePatch{}},
		{"texts are trimmed", `{"name":"  Asha Rao ","bio":" hi ","location":" Kolkata "}`,
			ProfilePatch{Name: ptr("Asha Rao"), Bio: ptr("hi"), Location: ptr("Kolkata")}},
		{"empty bio clears it", `{"bio":""}`, ProfilePatch{Bio: ptr("")}},
		{"NUL characters removed", `{"bio":"a\u0000b"}`, ProfilePatch{Bio: ptr("ab")}},
		{"education", `{"education":{"degree":" BCA ","institution":"BWU","years":2024}}`,
			ProfilePatch{Education: &Education{Degree: "BCA", Institution: "BWU", Years: "2024"}}},
		{"skills: default, numeric string, clamp, round, drop unnamed",
			`{"skills":[{"name":"Go"},{"name":"SQL","proficiency":"70"},{"name":"C","proficiency":150},
			  {"name":"Rust","proficiency":-3},{"name":"Zig","proficiency":33.6},{"name":"  ","proficiency":10},{"name":"Js","proficiency":""}]}`,
			ProfilePatch{Skills: &[]Skill{{"Go", 50}, {"SQL", 70}, {"C", 100}, {"Rust", 0}, {"Zig", 34}, {"Js", 50}}}},
		{"empty skill list clears", `{"skills":[]}`, ProfilePatch{Skills: &[]Skill{}}},
		{"achievements drop empty rows", `{"achievements":[{"title":"Winner","description":"Hackathon","year":2023},{"title":" "}]}`,
			ProfilePatch{Achievements: &[]Achievement{{"Winner", "Hackathon", "2023"}}}},
		{"interests from comma text", `{"interests":" chess, music,, ,Chess ,art "}`,
			ProfilePatch{Interests: &[]string{"chess", "music", "art"}}},
		{"interests from array", `{"interests":["chess"," music ","", "a,b"]}`,
			ProfilePatch{Interests: &[]string{"chess", "music", "a", "b"}}},
		{"experience with company alias", `{"experience":[{"title":"Intern","company":"ACME","startDate":"2023-01"},{}]}`,
			ProfilePatch{Experience: &[]Experience{{Title: "Intern", Organization: "ACME", StartDate: "2023-01"}}}},
		{"caps are inclusive", `{"bio":"` + strings.Repeat("é", MaxBioLength) + `"}`,
			ProfilePatch{Bio: ptr(strings.Repeat("é", MaxBioLength))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeProfile(t, tt.body).Validate()
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %s\nwant %s", dump(got), dump(tt.want))
			}
		})
	}
}

func TestProfileInputInvalid(t *testing.T) {
	many := func(n int, item string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + "]"
	}
	long := func(n int) string { return strings.Repeat("x", n+1) }
	tests := []struct {
		name, body, field, msg string
	}{
		{"blank name", `{"name":"  "}`, "name", MsgNameRequired},
		{"long name", `{"name":"` + long(MaxNameLength) + `"}`, "name", MsgNameTooLong},
		{"long bio", `{"bio":"` + long(MaxBioLength) + `"}`, "bio", "Bio must be at most 500 characters long"},
		{"long location", `{"location":"` + long(MaxLocationLength) + `"}`, "location", "Location must be at most 100 characters long"},
		{"long degree", `{"education":{"degree":"` + long(MaxEducationField) + `"}}`, "education.degree", "Degree must be at most 100 characters long"},
		{"long years", `{"education":{"years":"` + long(MaxEducationYears) + `"}}`, "education.years", "Years must be at most 50 characters long"},
		{"too many skills", `{"skills":` + many(MaxSkills+1, `{"name":"s"}`) + `}`, "skills", "You can add at most 30 skills"},
		{"long skill name", `{"skills":[{"name":"ok"},{"name":"` + long(MaxSkillName) + `"}]}`, "skills[1].name", "Skill name must be at most 50 characters long"},
		{"proficiency not a number", `{"skills":[{"name":"Go","proficiency":"lots"}]}`, "skills[0].proficiency", MsgProficiencyNotNumber},
		{"proficiency an object", `{"skills":[{"name":"Go","proficiency":{}}]}`, "skills[0].proficiency", MsgProficiencyNotNumber},
		{"too many achievements", `{"achievements":` + many(MaxAchievements+1, `{"title":"t"}`) + `}`, "achievements", "You can add at most 30 achievements"},
		{"long achievement description", `{"achievements":[{"description":"` + long(MaxAchievementDesc) + `"}]}`, "achievements[0].description", "Achievement description must be at most 500 characters long"},
		{"too many interests", `{"interests":"` + distinct(MaxInterests+1) + `"}`, "interests", "You can add at most 30 interests"},
		{"long interest", `{"interests":["` + long(MaxInterestLength) + `"]}`, "interests", "Each interest must be at most 50 characters long"},
		{"interests of the wrong shape", `{"interests":{"a":1}}`, "interests", "Interests must be text separated by commas or a list of texts"},
		{"too many experience entries", `{"experience":` + many(MaxExperience+1, `{"title":"t"}`) + `}`, "experience", "You can add at most 20 experience entries"},
		{"long experience description", `{"experience":[{"description":"` + long(MaxExperienceDesc) + `"}]}`, "experience[0].description", "Description must be at most 1000 characters long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeProfile(t, tt.body).Validate()
			wantInvalid(t, err, tt.msg, tt.field)
		})
	}
}

// distinct is n different comma-separated interests.
func distinct(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = "interest" + strings.Repeat("!", i)
	}
	return strings.Join(parts, ",")
}

func TestTooManyInterestsCountsDistinct(t *testing.T) {
	// Thirty distinct interests plus repeats of them is still thirty.
	items := make([]string, 0, 60)
	for i := range MaxInterests {
		items = append(items, strings.Repeat("a", i+1), strings.Repeat("A", i+1))
	}
	got, err := NewInterests(items...).Validate()
	if err != nil || len(got) != MaxInterests {
		t.Fatalf("got %d interests, %v", len(got), err)
	}
}

func TestTextRefusesObjects(t *testing.T) {
	var in ProfileInput
	err := json.Unmarshal([]byte(`{"name":{"first":"a"}}`), &in)
	var te *json.UnmarshalTypeError
	if err == nil || !asTypeError(err, &te) || te.Field != "name" {
		t.Fatalf("err = %v, want a type error on name", err)
	}
}

func asTypeError(err error, te **json.UnmarshalTypeError) bool {
	e, ok := err.(*json.UnmarshalTypeError)
	*te = e
	return ok
}

func TestProfileSetupInput(t *testing.T) {
	tests := []struct {
		name, body string
		want       ProfileSetup
		field, msg string
	}{
		{name: "full", body: `{"name":" Asha ","role":"student","bio":"hi","avatar":{"url":"/media/a.png","publicId":"a.png"},"coverPhoto":"/media/c.png"}`,
			want: ProfileSetup{Name: "Asha", Bio: ptr("hi"), Avatar: ImageRef{URL: "/media/a.png", PublicID: "a.png"}, CoverPhoto: ImageRef{URL: "/media/c.png"}}},
		{name: "skip keeps the signup name", body: `{"role":"faculty","avatar":null}`, want: ProfileSetup{}},
		{name: "bad role", body: `{"role":"admin"}`, field: "role", msg: MsgInvalidRole},
		{name: "long bio", body: `{"bio":"` + strings.Repeat("b", MaxBioLength+1) + `"}`, field: "bio", msg: "Bio must be at most 500 characters long"},
		{name: "long name", body: `{"name":"` + strings.Repeat("n", MaxNameLength+1) + `"}`, field: "name", msg: MsgNameTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in ProfileSetupInput
			if err := json.Unmarshal([]byte(tt.body), &in); err != nil {
				t.Fatal(err)
			}
			got, err := in.Validate()
			if tt.msg != "" {
				wantInvalid(t, err, tt.msg, tt.field)
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %s, %v; want %s", dump(got), err, dump(tt.want))
			}
		})
	}
}

func TestImageRefZero(t *testing.T) {
	if !(ImageRef{URL: " "}).IsZero() || (ImageRef{PublicID: "k"}).IsZero() {
		t.Fatal("IsZero")
	}
}

func dump(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
