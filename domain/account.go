package domain

import (
	"strings"
	"unicode/utf8"
)

// Messages of the account flows. Those of docs/product.md (§5, §8.2, §8.4) are
// written exactly as it has them because clients match on their text; the
// rest are ours.
const (
	MsgAllFieldsRequired         = "All fields are required"
	MsgPasswordsMismatch         = "Passwords do not match"
	MsgStudentFieldsRequired     = "All fields are required for student registration"
	MsgFacultyDepartmentRequired = "Department is required for faculty registration"
	MsgInvalidEmail              = "Please enter a valid email address"
	MsgUniversityIDRequired      = "University ID is required"
	MsgDepartmentRequired        = "Department is required"
	MsgNameTooLong               = "Name must be at most 100 characters long"
	MsgProgramTooLong            = "Program must be at most 100 characters long"
	MsgBatchTooLong              = "Batch must be at most 100 characters long"
	MsgDepartmentTooLong         = "Department must be at most 100 characters long"

	MsgIdentifierRequired = "Email or university ID is required"
	MsgEmailRequired      = "Email is required"

	MsgResetPasswordsMismatch = "Passwords don't match"

	MsgSameEmail               = "The email address is the same as your current one"
	MsgNewPasswordsMismatch    = "New passwords do not match"
	MsgCurrentPasswordRequired = "Current password is required"
)

// Messages the server produces once the input is well formed. Clients look
// for the quoted substrings (docs/product.md §8.2), so keep them inside these sentences:
// login failures contain "Incorrect credentials"; duplicates contain
// "email already exists" or "University ID already exists".
const (
	MsgIncorrectCredentials     = "Incorrect credentials"
	MsgEmailExists              = "A user with this email already exists"
	MsgUniversityIDExists       = "A user with this University ID already exists"
	MsgEmailNotVerified         = "Please verify your email address before logging in. Enter the code we sent to your email."
	MsgCurrentPasswordIncorrect = "Current password is incorrect. Please try again."
	MsgCodeSent                 = "A verification code has been sent to your email."
	MsgResetCodeSent            = "If an account matches, an OTP has been sent to its email."
	MsgPasswordReset            = "Password reset successfully. You can now log in."
	MsgEmailUpdated             = "Email updated successfully!"
	MsgPasswordUpdated          = "Password updated successfully!"
	MsgAccountDeleted           = "Your account has been deleted."
)

// MaxNameLength caps a display name; the spec sets none, and names show in
// narrow cards and notification lines. Program, batch and department share it.
const MaxNameLength = 100

// SignupInput is the body of POST /auth/signup. The spec's client sends only
// {name, email, password, collegeId, role} (docs/product.md §7.1); a fuller form also
// sends the student or faculty fields of docs/product.md §2.5. Both shapes are accepted.
type SignupInput struct {
	Name            string  `json:"name"`
	Email           string  `json:"email"`
	Password        string  `json:"password"`
	ConfirmPassword *string `json:"confirmPassword,omitempty"` // checked only when sent
	Role            string  `json:"role"`
	UniversityID    string  `json:"universityId"`
	Program         string  `json:"program"`
	Batch           string  `json:"batch"`
	Department      string  `json:"department"`
	CollegeID       string  `json:"collegeId"` // university ID (student) or department (faculty)
}

// Signup is a validated, normalized signup.
type Signup struct {
	Name         string
	Email        string // lower-case
	Password     string // as typed; never trimmed
	Role         Role
	UniversityID string // students only; upper-case canonical form
	Program      string // students only
	Batch        string // students only
	Department   string // faculty only
	CollegeID    string // UniversityID for students, Department for faculty
}

// Validate checks a signup in the order of docs/product.md §5 and returns the first
// problem as a 400 naming its field(s).
//
// A body that carries any of universityId, program, batch or department is a
// full form and must be complete for its role. A body with none of them is the
// compact shape: collegeId stands for the university ID or the department, and
// a student's program and batch are read from the ID's parts.
func (in SignupInput) Validate() (Signup, error) {
	s, err := in.validate()
	if err != nil {
		return Signup{}, err
	}
	return s, nil
}

func (in SignupInput) validate() (Signup, *Error) {
	s := Signup{
		Name:     strings.TrimSpace(in.Name),
		Email:    NormalizeEmail(in.Email),
		Password: in.Password,
	}
	fields := []field{{"name", s.Name}, {"email", s.Email}, {"password", s.Password}}
	if in.ConfirmPassword != nil {
		fields = append(fields, field{"confirmPassword", *in.ConfirmPassword})
	}
	if e := required(fields...); e != nil {
		return Signup{}, e.withMessage(MsgAllFieldsRequired)
	}
	if in.ConfirmPassword != nil && *in.ConfirmPassword != in.Password {
		return Signup{}, InvalidField("confirmPassword", MsgPasswordsMismatch)
	}
	role, e := parseRole(in.Role)
	if e != nil {
		return Signup{}, e
	}
	s.Role = role

	id := NormalizeUniversityID(in.UniversityID)
	program := strings.TrimSpace(in.Program)
	batch := strings.TrimSpace(in.Batch)
	dept := strings.TrimSpace(in.Department)
	form := id != "" || program != "" || batch != "" || dept != ""
	idField, deptField := "universityId", "department"
	if form && role == RoleStudent {
		if e := required(field{"universityId", id}, field{"program", program}, field{"batch", batch}); e != nil {
			return Signup{}, e.withMessage(MsgStudentFieldsRequired)
		}
	}
	if form && role == RoleFaculty && dept == "" {
		return Signup{}, InvalidField("department", MsgFacultyDepartmentRequired)
	}
	if !form {
		idField, deptField = "collegeId", "collegeId"
		id = NormalizeUniversityID(in.CollegeID)
		dept = strings.TrimSpace(in.CollegeID)
	}

	if !validEmail(s.Email) {
		return Signup{}, InvalidField("email", MsgInvalidEmail)
	}
	if e := checkPasswordLength("password", s.Password); e != nil {
		return Signup{}, e
	}
	if utf8.RuneCountInString(s.Name) > MaxNameLength {
		return Signup{}, InvalidField("name", MsgNameTooLong)
	}

	if role == RoleFaculty {
		switch {
		case dept == "":
			return Signup{}, InvalidField(deptField, MsgDepartmentRequired)
		case utf8.RuneCountInString(dept) > MaxNameLength:
			return Signup{}, InvalidField(deptField, MsgDepartmentTooLong)
		}
		s.Department, s.CollegeID = dept, dept
		return s, nil
	}

	if id == "" {
		return Signup{}, InvalidField(idField, MsgUniversityIDRequired)
	}
	u, err := ParseUniversityID(id)
	if err != nil {
		return Signup{}, InvalidField(idField, MsgInvalidUniversityID)
	}
	if !form {
		program, batch = u.Program, u.Batch
	}
	switch {
	case utf8.RuneCountInString(program) > MaxNameLength:
		return Signup{}, InvalidField("program", MsgProgramTooLong)
	case utf8.RuneCountInString(batch) > MaxNameLength:
		return Signup{}, InvalidField("batch", MsgBatchTooLong)
	}
	s.UniversityID, s.CollegeID = u.String(), u.String()
	s.Program, s.Batch = program, batch
	return s, nil
}

// LoginInput is the body of POST /auth/login: password, role, and email or
// universityId.
type LoginInput struct {
	Email        string `json:"email"`
	UniversityID string `json:"universityId"`
	Password     string `json:"password"`
	Role         string `json:"role"`
}

// Login is a validated login.
type Login struct {
	ID       Identifier
	Password string
	Role     Role
}

// Validate checks that an identifier and a password were sent.
func (in LoginInput) Validate() (Login, error) {
	id := IdentifierFrom(in.Email, in.UniversityID)
	if id.IsZero() {
		return Login{}, InvalidField("email", MsgIdentifierRequired)
	}
	if in.Password == "" {
		return Login{}, InvalidField("password", MsgPasswordRequired)
	}
	// No stored password is longer, so such a login cannot succeed; saying so
	// spares a hash of an arbitrarily long input.
	if utf8.RuneCountInString(in.Password) > MaxPasswordLength {
		return Login{}, InvalidField("password", MsgPasswordTooLong)
	}
	role, err := ParseRole(in.Role)
	if err != nil {
		return Login{}, err
	}
	return Login{ID: id, Password: in.Password, Role: role}, nil
}

// ForgotInput is the body of POST /auth/forgot-password.
type ForgotInput struct {
	Email        string `json:"email"`
	UniversityID string `json:"universityId"`
	Role         string `json:"role"`
}

// Forgot is a validated forgot-password request.
type Forgot struct {
	ID   Identifier
	Role Role
}

// Validate checks that an identifier was sent.
func (in ForgotInput) Validate() (Forgot, error) {
	id := IdentifierFrom(in.Email, in.UniversityID)
	if id.IsZero() {
		return Forgot{}, InvalidField("email", MsgIdentifierRequired)
	}
	role, err := ParseRole(in.Role)
	if err != nil {
		return Forgot{}, err
	}
	return Forgot{ID: id, Role: role}, nil
}

// ResetInput is the body of POST /auth/reset-password.
type ResetInput struct {
	Email           string  `json:"email"`
	UniversityID    string  `json:"universityId"`
	Role            string  `json:"role"`
	OTP             string  `json:"otp"`
	NewPassword     string  `json:"newPassword"`
	ConfirmPassword *string `json:"confirmPassword,omitempty"` // checked only when sent
}

// Reset is a validated password reset.
type Reset struct {
	ID          Identifier
	Role        Role
	OTP         string
	NewPassword string
}

// Validate checks a reset in the order of docs/product.md §5. Weak passwords are
// refused; medium and strong ones pass, which is what the meter suggests.
func (in ResetInput) Validate() (Reset, error) {
	id := IdentifierFrom(in.Email, in.UniversityID)
	if id.IsZero() {
		return Reset{}, InvalidField("email", MsgIdentifierRequired)
	}
	role, err := ParseRole(in.Role)
	if err != nil {
		return Reset{}, err
	}
	otp, err := ParseOTP(in.OTP)
	if err != nil {
		return Reset{}, err
	}
	if in.NewPassword == "" {
		return Reset{}, InvalidField("newPassword", MsgPasswordRequired)
	}
	if in.ConfirmPassword != nil && *in.ConfirmPassword != in.NewPassword {
		return Reset{}, InvalidField("confirmPassword", MsgResetPasswordsMismatch)
	}
	if PasswordStrength(in.NewPassword) == Weak {
		return Reset{}, InvalidField("newPassword", MsgPasswordTooWeak)
	}
	if e := checkPasswordLength("newPassword", in.NewPassword); e != nil {
		return Reset{}, e
	}
	return Reset{ID: id, Role: role, OTP: otp, NewPassword: in.NewPassword}, nil
}

// VerifyInput is the body of POST /auth/verify-otp.
type VerifyInput struct {
	Email string `json:"email"`
	OTP   string `json:"otp"`
}

// Verify is a validated e-mail verification.
type Verify struct {
	Email string
	OTP   string
}

// Validate checks the address and that the code is six digits.
func (in VerifyInput) Validate() (Verify, error) {
	email, err := checkEmail("email", in.Email)
	if err != nil {
		return Verify{}, err
	}
	otp, err := ParseOTP(in.OTP)
	if err != nil {
		return Verify{}, err
	}
	return Verify{Email: email, OTP: otp}, nil
}

// ResendInput is the body of POST /auth/resend-otp.
type ResendInput struct {
	Email string `json:"email"`
}

// Validate returns the normalized address.
func (in ResendInput) Validate() (string, error) { return checkEmail("email", in.Email) }

// EmailChangeInput is the body of POST /users/send-email-change-otp.
type EmailChangeInput struct {
	NewEmail string `json:"newEmail"`
}

// Validate returns the normalized new address, which must differ from the
// current one (compared case-insensitively, as addresses are stored).
func (in EmailChangeInput) Validate(current string) (string, error) {
	email, err := checkEmail("newEmail", in.NewEmail)
	if err != nil {
		return "", err
	}
	if email == NormalizeEmail(current) {
		return "", InvalidField("newEmail", MsgSameEmail)
	}
	return email, nil
}

// EmailChangeVerifyInput is the body of POST /users/verify-email-change-otp.
type EmailChangeVerifyInput struct {
	OTP      string `json:"otp"`
	NewEmail string `json:"newEmail"`
}

// EmailChange is a validated, code-confirmed e-mail change.
type EmailChange struct {
	OTP      string
	NewEmail string
}

// Validate checks the code, then the address as EmailChangeInput does.
func (in EmailChangeVerifyInput) Validate(current string) (EmailChange, error) {
	otp, err := checkOTP(in.OTP, MsgOTPIncomplete)
	if err != nil {
		return EmailChange{}, err
	}
	email, verr := EmailChangeInput{NewEmail: in.NewEmail}.Validate(current)
	if verr != nil {
		return EmailChange{}, verr
	}
	return EmailChange{OTP: otp, NewEmail: email}, nil
}

// PasswordChangeInput is the body of POST /users/send-password-change-otp.
// The spec sends only currentPassword; a client that also sends the new
// password (and its confirmation) has it checked now rather than after the
// code round trip.
type PasswordChangeInput struct {
	CurrentPassword string  `json:"currentPassword"`
	NewPassword     string  `json:"newPassword,omitempty"`
	ConfirmPassword *string `json:"confirmPassword,omitempty"`
}

// Validate checks that the current password was sent and, when present, the
// new one.
func (in PasswordChangeInput) Validate() error {
	if in.CurrentPassword == "" {
		return InvalidField("currentPassword", MsgCurrentPasswordRequired)
	}
	if in.NewPassword == "" && in.ConfirmPassword == nil {
		return nil
	}
	if e := checkNewPassword(in.NewPassword, in.ConfirmPassword); e != nil {
		return e
	}
	return nil
}

// PasswordChangeVerifyInput is the body of POST
// /users/verify-password-change-otp.
type PasswordChangeVerifyInput struct {
	OTP             string  `json:"otp"`
	NewPassword     string  `json:"newPassword"`
	ConfirmPassword *string `json:"confirmPassword,omitempty"`
}

// PasswordChange is a validated, code-confirmed password change.
type PasswordChange struct {
	OTP         string
	NewPassword string
}

// Validate checks the code, then the new password: confirmation (when sent)
// matches, and the length limits (docs/product.md §5 sets only the minimum of 8 here).
func (in PasswordChangeVerifyInput) Validate() (PasswordChange, error) {
	otp, err := checkOTP(in.OTP, MsgOTPIncomplete)
	if err != nil {
		return PasswordChange{}, err
	}
	if e := checkNewPassword(in.NewPassword, in.ConfirmPassword); e != nil {
		return PasswordChange{}, e
	}
	return PasswordChange{OTP: otp, NewPassword: in.NewPassword}, nil
}

// DeleteAccountVerifyInput is the body of POST
// /users/verify-delete-account-otp.
type DeleteAccountVerifyInput struct {
	OTP string `json:"otp"`
}

// Validate returns the code once it is six digits.
func (in DeleteAccountVerifyInput) Validate() (string, error) {
	otp, err := checkOTP(in.OTP, MsgOTPIncomplete)
	if err != nil {
		return "", err
	}
	return otp, nil
}

func checkNewPassword(p string, confirm *string) *Error {
	if p == "" {
		return InvalidField("newPassword", MsgPasswordRequired)
	}
	if confirm != nil && *confirm != p {
		return InvalidField("confirmPassword", MsgNewPasswordsMismatch)
	}
	return checkPasswordLength("newPassword", p)
}

// checkEmail normalizes an address and checks that it is present and valid.
func checkEmail(name, s string) (string, error) {
	email := NormalizeEmail(s)
	switch {
	case email == "":
		return "", InvalidField(name, MsgEmailRequired)
	case !validEmail(email):
		return "", InvalidField(name, MsgInvalidEmail)
	}
	return email, nil
}

// field is one named input value for required.
type field struct {
	name  string
	value string
}

// missing is the list of empty required fields.
type missing []FieldError

// required lists the empty fields, or nil when all are set.
func required(fields ...field) missing {
	var m missing
	for _, f := range fields {
		if f.value == "" {
			m = append(m, FieldError{Field: f.name})
		}
	}
	return m
}

// withMessage turns the missing fields into one 400 whose message, and every
// field's, is msg.
func (m missing) withMessage(msg string) *Error {
	for i := range m {
		m[i].Msg = msg
	}
	return Invalid(msg, m...)
}
