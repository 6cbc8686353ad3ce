package domain

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// wantInvalid fails unless err is a 400 *Error with exactly msg whose fields
// include every name in fields.
func wantInvalid(t *testing.T, err error, msg string, fields ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want *Error %q", err, msg)
	}
	if e.Kind != KindInvalid || !errors.Is(err, ErrInvalid) {
		t.Errorf("kind = %v, want KindInvalid", e.Kind)
	}
	if e.Message != msg {
		t.Errorf("message = %q, want %q", e.Message, msg)
	}
	var got []string
	for _, f := range e.Fields {
		got = append(got, f.Field)
		if f.Msg != msg {
			t.Errorf("field %s msg = %q, want %q", f.Field, f.Msg, msg)
		}
	}
	for _, f := range fields {
		if !slices.Contains(got, f) {
			t.Errorf("fields = %v, want %s among them", got, f)
		}
	}
}

func ptr(s string) *string { return &s }

// student is a complete compact signup (the spec client's shape).
func student() SignupInput {
	return SignupInput{Name: "Asha Rao", Email: "asha@uni.edu", Password: "secret12", Role: "student", CollegeID: "BWU/BCA/20/123"}
}

func faculty() SignupInput {
	return SignupInput{Name: "Dr. Sen", Email: "sen@uni.edu", Password: "secret12", Role: "faculty", CollegeID: "Computer Science"}
}

func TestSignupValid(t *testing.T) {
	tests := []struct {
		name string
		in   func(*SignupInput)
		base func() SignupInput
		want Signup
	}{
		{
			name: "compact student derives program and batch from the ID",
			base: student,
			in: func(in *SignupInput) {
				in.Email, in.CollegeID, in.Name = "  Asha@UNI.edu ", " bwu/bca/20/123 ", "  Asha Rao "
			},
			want: Signup{Name: "Asha Rao", Email: "asha@uni.edu", Password: "secret12", Role: RoleStudent,
				UniversityID: "BWU/BCA/20/123", Program: "BCA", Batch: "20", CollegeID: "BWU/BCA/20/123"},
		},
		{
			name: "role defaults to student",
			base: student,
			in:   func(in *SignupInput) { in.Role = "" },
			want: Signup{Name: "Asha Rao", Email: "asha@uni.edu", Password: "secret12", Role: RoleStudent,
				UniversityID: "BWU/BCA/20/123", Program: "BCA", Batch: "20", CollegeID: "BWU/BCA/20/123"},
		},
		{
			name: "full student form keeps its program and batch",
			base: student,
			in: func(in *SignupInput) {
				in.CollegeID, in.UniversityID, in.Program, in.Batch = "", "BWU/BCA/20/123", "Computer Applications", "2020-23"
				in.ConfirmPassword = ptr("secret12")
			},
			want: Signup{Name: "Asha Rao", Email: "asha@uni.edu", Password: "secret12", Role: RoleStudent,
				UniversityID: "BWU/BCA/20/123", Program: "Computer Applications", Batch: "2020-23", CollegeID: "BWU/BCA/20/123"},
		},
		{
			name: "compact faculty takes the college id as department",
			base: faculty,
			in:   func(in *SignupInput) { in.Role = "Faculty" },
			want: Signup{Name: "Dr. Sen", Email: "sen@uni.edu", Password: "secret12", Role: RoleFaculty,
				Department: "Computer Science", CollegeID: "Computer Science"},
		},
		{
			name: "faculty form",
			base: faculty,
			in:   func(in *SignupInput) { in.CollegeID, in.Department = "", " Physics " },
			want: Signup{Name: "Dr. Sen", Email: "sen@uni.edu", Password: "secret12", Role: RoleFaculty,
				Department: "Physics", CollegeID: "Physics"},
		},
		{
			name: "password is kept as typed, spaces included",
			base: student,
			in:   func(in *SignupInput) { in.Password = " pass word " },
			want: Signup{Name: "Asha Rao", Email: "asha@uni.edu", Password: " pass word ", Role: RoleStudent,
				UniversityID: "BWU/BCA/20/123", Program: "BCA", Batch: "20", CollegeID: "BWU/BCA/20/123"},
		},
		{
			name: "128 characters is the longest password",
			base: student,
			in:   func(in *SignupInput) { in.Password = strings.Repeat("é", 128) },
			want: Signup{Name: "Asha Rao", Email: "asha@uni.edu", Password: strings.Repeat("é", 128), Role: RoleStudent,
				UniversityID: "BWU/BCA/20/123", Program: "BCA", Batch: "20", CollegeID: "BWU/BCA/20/123"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.base()
			tt.in(&in)
			got, err := in.Validate()
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestSignupMessages(t *testing.T) {
	tests := []struct {
		name   string
		base   func() SignupInput
		in     func(*SignupInput)
		msg    string
		fields []string
	}{
		{"name missing", student, func(in *SignupInput) { in.Name = "   " },
			"All fields are required", []string{"name"}},
		{"everything missing names every field", student, func(in *SignupInput) { *in = SignupInput{} },
			"All fields are required", []string{"name", "email", "password"}},
		{"confirmation sent empty", student, func(in *SignupInput) { in.ConfirmPassword = ptr("") },
			"All fields are required", []string{"confirmPassword"}},
		{"confirmation differs", student, func(in *SignupInput) { in.ConfirmPassword = ptr("secret13") },
			"Passwords do not match", []string{"confirmPassword"}},
		{"unknown role", student, func(in *SignupInput) { in.Role = "admin" },
			"Role must be student or faculty", []string{"role"}},
		{"student form without batch", student, func(in *SignupInput) { in.UniversityID, in.Program = "BWU/BCA/20/123", "BCA" },
			"All fields are required for student registration", []string{"batch"}},
		{"student form without university ID", student, func(in *SignupInput) { in.Program, in.Batch = "BCA", "20" },
			"All fields are required for student registration", []string{"universityId"}},
		{"faculty form without department", faculty, func(in *SignupInput) { in.Program = "BCA" },
			"Department is required for faculty registration", []string{"department"}},
		{"e-mail without a dot after the @", student, func(in *SignupInput) { in.Email = "asha@uni" },
			"Please enter a valid email address", []string{"email"}},
		{"e-mail with a space", student, func(in *SignupInput) { in.Email = "asha rao@uni.edu" },
			"Please enter a valid email address", []string{"email"}},
		{"e-mail too long", student, func(in *SignupInput) { in.Email = strings.Repeat("a", 250) + "@uni.edu" },
			"Please enter a valid email address", []string{"email"}},
		{"e-mail is checked before the password", student, func(in *SignupInput) { in.Email, in.Password = "nope", "short" },
			"Please enter a valid email address", []string{"email"}},
		{"password of 7 characters", student, func(in *SignupInput) { in.Password = "secret1" },
			"Password must be at least 8 characters long", []string{"password"}},
		{"password of 129 characters", student, func(in *SignupInput) { in.Password = strings.Repeat("a", 129) },
			"Password must be at most 128 characters long", []string{"password"}},
		{"name too long", student, func(in *SignupInput) { in.Name = strings.Repeat("n", 101) },
			"Name must be at most 100 characters long", []string{"name"}},
		{"compact student ID malformed", student, func(in *SignupInput) { in.CollegeID = "BWU-BCA-20-123" },
			"Invalid university ID format. Example: BWU/BCA/20/123", []string{"collegeId"}},
		{"form student ID malformed", student, func(in *SignupInput) {
			in.UniversityID, in.Program, in.Batch = "BWU/BCA/XX/123", "BCA", "20"
		}, "Invalid university ID format. Example: BWU/BCA/20/123", []string{"universityId"}},
		{"compact student without college id", student, func(in *SignupInput) { in.CollegeID = " " },
			"University ID is required", []string{"collegeId"}},
		{"compact faculty without college id", faculty, func(in *SignupInput) { in.CollegeID = "" },
			"Department is required", []string{"collegeId"}},
		{"department too long", faculty, func(in *SignupInput) { in.CollegeID = strings.Repeat("d", 101) },
			"Department must be at most 100 characters long", []string{"collegeId"}},
		{"program too long", student, func(in *SignupInput) {
			in.UniversityID, in.Program, in.Batch = "BWU/BCA/20/123", strings.Repeat("p", 101), "20"
		}, "Program must be at most 100 characters long", []string{"program"}},
		{"batch too long", student, func(in *SignupInput) {
			in.UniversityID, in.Program, in.Batch = "BWU/BCA/20/123", "BCA", strings.Repeat("2", 101)
		}, "Batch must be at most 100 characters long", []string{"batch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.base()
			tt.in(&in)
			got, err := in.Validate()
			wantInvalid(t, err, tt.msg, tt.fields...)
			if got != (Signup{}) {
				t.Errorf("got %+v alongside an error", got)
			}
		})
	}
}

func TestLogin(t *testing.T) {
	tests := []struct {
		name  string
		in    LoginInput
		want  Login
		msg   string
		field string
	}{
		{name: "e-mail", in: LoginInput{Email: " Asha@Uni.edu ", Password: "pw"},
			want: Login{ID: Identifier{IdentEmail, "asha@uni.edu"}, Password: "pw", Role: RoleStudent}},
		{name: "university ID in its own field", in: LoginInput{UniversityID: "bwu/bca/20/123", Password: "pw", Role: "student"},
			want: Login{ID: Identifier{IdentUniversityID, "BWU/BCA/20/123"}, Password: "pw", Role: RoleStudent}},
		{name: "university ID typed into the e-mail field", in: LoginInput{Email: "BWU/BCA/20/123", Password: "pw", Role: "faculty"},
			want: Login{ID: Identifier{IdentUniversityID, "BWU/BCA/20/123"}, Password: "pw", Role: RoleFaculty}},
		{name: "no identifier", in: LoginInput{Email: " ", Password: "pw"},
			msg: "Email or university ID is required", field: "email"},
		{name: "no password", in: LoginInput{Email: "asha@uni.edu"},
			msg: "Password is required", field: "password"},
		{name: "password longer than any stored", in: LoginInput{Email: "asha@uni.edu", Password: strings.Repeat("x", 129)},
			msg: "Password must be at most 128 characters long", field: "password"},
		{name: "unknown role", in: LoginInput{Email: "asha@uni.edu", Password: "pw", Role: "root"},
			msg: "Role must be student or faculty", field: "role"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.Validate()
			if tt.msg != "" {
				wantInvalid(t, err, tt.msg, tt.field)
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestForgot(t *testing.T) {
	got, err := ForgotInput{UniversityID: " bwu/bca/20/123 ", Role: "student"}.Validate()
	want := Forgot{ID: Identifier{IdentUniversityID, "BWU/BCA/20/123"}, Role: RoleStudent}
	if err != nil || got != want {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}
	t.Run("no identifier", func(t *testing.T) {
		_, err := ForgotInput{}.Validate()
		wantInvalid(t, err, "Email or university ID is required", "email")
	})
	t.Run("unknown role", func(t *testing.T) {
		_, err := ForgotInput{Email: "asha@uni.edu", Role: "x"}.Validate()
		wantInvalid(t, err, "Role must be student or faculty", "role")
	})
}

func TestReset(t *testing.T) {
	ok := func() ResetInput {
		return ResetInput{Email: "Asha@uni.edu", OTP: " 123456 ", NewPassword: "Secret12", ConfirmPassword: ptr("Secret12")}
	}
	got, err := ok().Validate()
	want := Reset{ID: Identifier{IdentEmail, "asha@uni.edu"}, Role: RoleStudent, OTP: "123456", NewPassword: "Secret12"}
	if err != nil || got != want {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}

	tests := []struct {
		name  string
		in    func(*ResetInput)
		msg   string
		field string
	}{
		{"no identifier", func(in *ResetInput) { in.Email = "" }, "Email or university ID is required", "email"},
		{"unknown role", func(in *ResetInput) { in.Role = "dean" }, "Role must be student or faculty", "role"},
		{"code with a letter", func(in *ResetInput) { in.OTP = "12345a" }, "OTP must be 6 digits", "otp"},
		{"code of 5 digits", func(in *ResetInput) { in.OTP = "12345" }, "OTP must be 6 digits", "otp"},
		{"code of 7 digits", func(in *ResetInput) { in.OTP = "1234567" }, "OTP must be 6 digits", "otp"},
		{"no new password", func(in *ResetInput) { in.NewPassword = "" }, "Password is required", "newPassword"},
		{"confirmation differs", func(in *ResetInput) { in.ConfirmPassword = ptr("Secret13") }, "Passwords don't match", "confirmPassword"},
		{"weak: one class", func(in *ResetInput) { in.NewPassword, in.ConfirmPassword = "abcdefghij", nil },
			"Password is too weak. Use at least 8 characters including uppercase, lowercase, numbers, and special characters.", "newPassword"},
		{"weak: short", func(in *ResetInput) { in.NewPassword, in.ConfirmPassword = "Ab1!", nil },
			"Password is too weak. Use at least 8 characters including uppercase, lowercase, numbers, and special characters.", "newPassword"},
		{"too long", func(in *ResetInput) { in.NewPassword, in.ConfirmPassword = strings.Repeat("Ab1!", 33), nil },
			"Password must be at most 128 characters long", "newPassword"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := ok()
			tt.in(&in)
			_, err := in.Validate()
			wantInvalid(t, err, tt.msg, tt.field)
		})
	}
}

func TestVerifyAndResend(t *testing.T) {
	got, err := VerifyInput{Email: " Asha@Uni.edu", OTP: "012345"}.Validate()
	if want := (Verify{Email: "asha@uni.edu", OTP: "012345"}); err != nil || got != want {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}
	if got, err := (ResendInput{Email: "ASHA@uni.edu"}).Validate(); err != nil || got != "asha@uni.edu" {
		t.Errorf("resend got %q, %v", got, err)
	}
	tests := []struct {
		name  string
		err   func() error
		msg   string
		field string
	}{
		{"verify without e-mail", func() error { _, err := VerifyInput{OTP: "123456"}.Validate(); return err },
			"Email is required", "email"},
		{"verify with a bad e-mail", func() error { _, err := VerifyInput{Email: "asha", OTP: "123456"}.Validate(); return err },
			"Please enter a valid email address", "email"},
		{"verify with a short code", func() error { _, err := VerifyInput{Email: "a@b.co", OTP: "123"}.Validate(); return err },
			"OTP must be 6 digits", "otp"},
		{"resend without e-mail", func() error { _, err := ResendInput{}.Validate(); return err },
			"Email is required", "email"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { wantInvalid(t, tt.err(), tt.msg, tt.field) })
	}
}

func TestSettings(t *testing.T) {
	const current = "asha@uni.edu"
	if got, err := (EmailChangeInput{NewEmail: " New@Uni.edu "}).Validate(current); err != nil || got != "new@uni.edu" {
		t.Errorf("email change got %q, %v", got, err)
	}
	got, err := EmailChangeVerifyInput{OTP: "123456", NewEmail: "new@uni.edu"}.Validate(current)
	if want := (EmailChange{OTP: "123456", NewEmail: "new@uni.edu"}); err != nil || got != want {
		t.Errorf("email change verify got %+v, %v", got, err)
	}
	pc, err := PasswordChangeVerifyInput{OTP: "123456", NewPassword: "password", ConfirmPassword: ptr("password")}.Validate()
	if want := (PasswordChange{OTP: "123456", NewPassword: "password"}); err != nil || pc != want {
		t.Errorf("password change verify got %+v, %v (spec asks only for 8 characters here)", pc, err)
	}
	if err := (PasswordChangeInput{CurrentPassword: "old"}).Validate(); err != nil {
		t.Errorf("password change with only the current password: %v", err)
	}
	if got, err := (DeleteAccountVerifyInput{OTP: "654321"}).Validate(); err != nil || got != "654321" {
		t.Errorf("delete verify got %q, %v", got, err)
	}

	tests := []struct {
		name  string
		err   func() error
		msg   string
		field string
	}{
		{"new e-mail malformed", func() error { _, err := EmailChangeInput{NewEmail: "new@uni"}.Validate(current); return err },
			"Please enter a valid email address", "newEmail"},
		{"new e-mail same as current, other case", func() error {
			_, err := EmailChangeInput{NewEmail: "ASHA@uni.edu"}.Validate(current)
			return err
		}, "The email address is the same as your current one", "newEmail"},
		{"e-mail change code incomplete", func() error {
			_, err := EmailChangeVerifyInput{OTP: "1234", NewEmail: "new@uni.edu"}.Validate(current)
			return err
		}, "Please enter all 6 digits of the OTP.", "otp"},
		{"e-mail change verify rechecks the address", func() error {
			_, err := EmailChangeVerifyInput{OTP: "123456", NewEmail: current}.Validate(current)
			return err
		}, "The email address is the same as your current one", "newEmail"},
		{"current password missing", func() error { return PasswordChangeInput{NewPassword: "password"}.Validate() },
			"Current password is required", "currentPassword"},
		{"new passwords differ at send time", func() error {
			return PasswordChangeInput{CurrentPassword: "old", NewPassword: "password", ConfirmPassword: ptr("passw0rd")}.Validate()
		}, "New passwords do not match", "confirmPassword"},
		{"password change code incomplete", func() error {
			_, err := PasswordChangeVerifyInput{OTP: "12345", NewPassword: "password"}.Validate()
			return err
		}, "Please enter all 6 digits of the OTP.", "otp"},
		{"password change code with letters", func() error {
			_, err := PasswordChangeVerifyInput{OTP: "12e456", NewPassword: "password"}.Validate()
			return err
		}, "OTP must be 6 digits", "otp"},
		{"new passwords differ", func() error {
			_, err := PasswordChangeVerifyInput{OTP: "123456", NewPassword: "password", ConfirmPassword: ptr("passw0rd")}.Validate()
			return err
		}, "New passwords do not match", "confirmPassword"},
		{"new password short", func() error {
			_, err := PasswordChangeVerifyInput{OTP: "123456", NewPassword: "pass"}.Validate()
			return err
		}, "Password must be at least 8 characters long", "newPassword"},
		{"new password missing", func() error {
			_, err := PasswordChangeVerifyInput{OTP: "123456"}.Validate()
			return err
		}, "Password is required", "newPassword"},
		{"delete code empty", func() error { _, err := DeleteAccountVerifyInput{}.Validate(); return err },
			"Please enter all 6 digits of the OTP.", "otp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { wantInvalid(t, tt.err(), tt.msg, tt.field) })
	}
}

// TestServerMessages pins the server's texts that clients react to: the
// substrings a client looks for (docs/product.md §8.2) or the exact text
// (§8.4).
func TestServerMessages(t *testing.T) {
	tests := []struct {
		name, msg, want string
		exact           bool
	}{
		{"login failure", MsgIncorrectCredentials, "Incorrect credentials", false},
		{"duplicate e-mail", MsgEmailExists, "email already exists", false},
		{"duplicate university ID", MsgUniversityIDExists, "University ID already exists", false},
		{"wrong current password", MsgCurrentPasswordIncorrect, "Current password is incorrect. Please try again.", true},
		{"code resent", MsgOTPResent, "A new OTP has been sent to your email.", true},
		{"e-mail updated", MsgEmailUpdated, "Email updated successfully!", true},
		{"password updated", MsgPasswordUpdated, "Password updated successfully!", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.exact && tt.msg != tt.want || !strings.Contains(tt.msg, tt.want) {
				t.Errorf("message %q, want it to contain %q (exact: %v)", tt.msg, tt.want, tt.exact)
			}
		})
	}
	// Both unverified-login and bad-code answers must read as such, not as a
	// credentials failure that would send the user to sign up again.
	for _, msg := range []string{MsgEmailNotVerified, MsgInvalidOTP} {
		if strings.Contains(msg, "Incorrect credentials") || strings.Contains(msg, "User not found") {
			t.Errorf("%q would trigger the client's sign-up hint", msg)
		}
	}
}
