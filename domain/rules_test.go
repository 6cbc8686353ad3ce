package domain

import (
	"strings"
	"testing"
)

func TestParseRole(t *testing.T) {
	tests := []struct {
		in   string
		want Role
		bad  bool
	}{
		{in: "", want: RoleStudent},
		{in: "student", want: RoleStudent},
		{in: " Faculty ", want: RoleFaculty},
		{in: "admin", bad: true},
		{in: "students", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRole(tt.in)
			if tt.bad {
				wantInvalid(t, err, "Role must be student or faculty", "role")
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseRole(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestIdentify(t *testing.T) {
	tests := []struct {
		in   string
		want Identifier
	}{
		{"asha@uni.edu", Identifier{IdentEmail, "asha@uni.edu"}},
		{"  Asha.Rao+x@Mail.Uni.EDU ", Identifier{IdentEmail, "asha.rao+x@mail.uni.edu"}},
		{"bwu/bca/20/123", Identifier{IdentUniversityID, "BWU/BCA/20/123"}},
		{"asha@uni", Identifier{IdentUniversityID, "ASHA@UNI"}},                 // no dot: not an e-mail
		{"asha rao@uni.edu", Identifier{IdentUniversityID, "ASHA RAO@UNI.EDU"}}, // inner space: not an e-mail
		{"a@b@c.d", Identifier{IdentUniversityID, "A@B@C.D"}},
		{"   ", Identifier{}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Identify(tt.in); got != tt.want {
				t.Errorf("Identify(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestIdentifierFrom(t *testing.T) {
	tests := []struct {
		name, email, id string
		want            Identifier
	}{
		{"e-mail field", "Asha@uni.edu", "", Identifier{IdentEmail, "asha@uni.edu"}},
		{"university ID field", "", "bwu/bca/20/1", Identifier{IdentUniversityID, "BWU/BCA/20/1"}},
		{"ID typed into the e-mail field", "bwu/bca/20/1", "", Identifier{IdentUniversityID, "BWU/BCA/20/1"}},
		{"e-mail typed into the ID field", "", "asha@uni.edu", Identifier{IdentEmail, "asha@uni.edu"}},
		{"blank e-mail falls through", "  ", "BWU/BCA/20/1", Identifier{IdentUniversityID, "BWU/BCA/20/1"}},
		{"neither", "", "", Identifier{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IdentifierFrom(tt.email, tt.id); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestIsEmail(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"a@b.c", true},
		{"first.last@dept.uni.edu", true},
		{"a@b", false},
		{"@b.c", false},
		{"a@.c", false}, // something must come between the @ and the dot
		{"a@b.", false},
		{"a b@c.d", false},
		{"a@b.c ", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := IsEmail(tt.in); got != tt.want {
				t.Errorf("IsEmail(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseUniversityID(t *testing.T) {
	tests := []struct {
		in   string
		want UniversityID
		bad  bool
	}{
		{in: "BWU/BCA/20/123", want: UniversityID{"BWU", "BCA", "20", "123"}},
		{in: " bwu/mba/19/7 ", want: UniversityID{"BWU", "MBA", "19", "7"}},
		{in: "BWU/BCA/2020/0042", want: UniversityID{"BWU", "BCA", "2020", "0042"}},
		{in: "BWU/BCA/20", bad: true},
		{in: "BWU/BCA/20/123/9", bad: true},
		{in: "BW1/BCA/20/123", bad: true},
		{in: "BWU/BCA/2A/123", bad: true},
		{in: "BWU//20/123", bad: true},
		{in: "BWU BCA 20 123", bad: true},
		{in: "BWU/BCA/20/12a", bad: true},
		{in: "BWU/BCA/20/", bad: true},
		{in: "", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseUniversityID(tt.in)
			if tt.bad {
				wantInvalid(t, err, "Invalid university ID format. Example: BWU/BCA/20/123", "universityId")
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
			if s := got.String(); s != strings.ToUpper(strings.TrimSpace(tt.in)) {
				t.Errorf("String() = %q", s)
			}
		})
	}
}

func TestYearFromUniversityID(t *testing.T) {
	tests := []struct{ in, want string }{
		{"BWU/BCA/20/123", "2020"},
		{"BWU/BCA/07/1", "2007"},
		{"BWU/BCA/2019/1", "2019"},
		{"BWU/BCA/5/1", "2024"},
		{"BWU/BCA/ab/1", "2024"},
		{"BWU/BCA", "2024"},
		{"", "2024"},
		{"Computer Science", "2024"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := YearFromUniversityID(tt.in); got != tt.want {
				t.Errorf("YearFromUniversityID(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	if got := (UniversityID{"BWU", "BCA", "21", "1"}).Year(); got != "2021" {
		t.Errorf("Year() = %q, want 2021", got)
	}
}

func TestPasswordStrength(t *testing.T) {
	tests := []struct {
		in   string
		want Strength
	}{
		{"Ab1!xyz", Weak},      // 7 characters, all four classes
		{"abcdefgh", Weak},     // one class
		{"12345678", Weak},     // one class
		{"abcdefg1", Medium},   // two classes
		{"abcdEFG1", Medium},   // three classes
		{"abc defg", Medium},   // a space is special
		{"abcdEFG1!", Strong},  // four classes
		{"pässwort1A", Strong}, // non-ASCII letters count as special, like the client's meter
		{"ÄÖÜäöüßé", Weak},     // eight characters of one class (special)
		{"", Weak},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := PasswordStrength(tt.in); got != tt.want {
				t.Errorf("PasswordStrength(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestOTP(t *testing.T) {
	tests := []struct {
		name, in   string
		auth, sets string // messages from ParseOTP and ValidOTP; "" means accepted
	}{
		{"six digits", "012345", "", ""},
		{"spaces around", " 012345\n", "", ""},
		{"empty", "", "OTP must be 6 digits", "Please enter all 6 digits of the OTP."},
		{"five digits", "12345", "OTP must be 6 digits", "Please enter all 6 digits of the OTP."},
		{"seven digits", "1234567", "OTP must be 6 digits", "OTP must be 6 digits"},
		{"a letter", "12345x", "OTP must be 6 digits", "OTP must be 6 digits"},
		{"inner space", "123 456", "OTP must be 6 digits", "OTP must be 6 digits"},
		{"non-ASCII digits", "１２３４５６", "OTP must be 6 digits", "OTP must be 6 digits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, err := ParseOTP(tt.in)
			if tt.auth == "" {
				if err != nil || code != strings.TrimSpace(tt.in) {
					t.Errorf("ParseOTP = %q, %v", code, err)
				}
			} else {
				wantInvalid(t, err, tt.auth, "otp")
			}
			err = ValidOTP(tt.in)
			if tt.sets == "" {
				if err != nil {
					t.Errorf("ValidOTP: %v", err)
				}
			} else {
				wantInvalid(t, err, tt.sets, "otp")
			}
		})
	}
}

func TestPurposes(t *testing.T) {
	want := map[Purpose]string{
		"signup":          "verify your e-mail address",
		"reset":           "reset your password",
		"email_change":    "change your e-mail address",
		"password_change": "change your password",
		"delete_account":  "delete your account",
		"link_sign_in":    "link your university sign-in to your account",
	}
	got := Purposes()
	if len(got) != len(want) {
		t.Fatalf("Purposes() = %v, want the %d of docs/architecture.md §10", got, len(want))
	}
	for _, p := range got {
		t.Run(string(p), func(t *testing.T) {
			if p.Label() != want[p] || !p.Valid() {
				t.Errorf("Label() = %q, Valid() = %v; want %q", p.Label(), p.Valid(), want[p])
			}
		})
	}
	if Purpose("login").Valid() {
		t.Error("an unknown purpose is valid")
	}
}

func TestMaskEmail(t *testing.T) {
	tests := []struct{ in, want string }{
		{"john@uni.edu", "jo***@uni.edu"},
		{"  asha.rao@mail.uni.edu ", "as***@mail.uni.edu"},
		{"ab@uni.edu", "a***@uni.edu"}, // never the whole local part
		{"a@uni.edu", "***@uni.edu"},
		{"éèêë@uni.edu", "éè***@uni.edu"}, // characters, not bytes
		{"nodomain", "no***"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := MaskEmail(tt.in); got != tt.want {
				t.Errorf("MaskEmail(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
