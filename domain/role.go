package domain

import "strings"

// Role is what a user is on campus; it decides which signup fields apply.
type Role string

// The two roles of docs/product.md §6. There is no admin role.
const (
	RoleStudent Role = "student"
	RoleFaculty Role = "faculty"
)

// MsgInvalidRole answers a role that is neither student nor faculty.
const MsgInvalidRole = "Role must be student or faculty"

// ParseRole reads a role as sent by a client. An empty role is a student
// (docs/product.md §5: "Role defaults to student"); case and surrounding spaces are
// forgiven because the value comes from a toggle, not from typing.
func ParseRole(s string) (Role, error) {
	r, err := parseRole(s)
	if err != nil {
		return "", err
	}
	return r, nil
}

func parseRole(s string) (Role, *Error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", string(RoleStudent):
		return RoleStudent, nil
	case string(RoleFaculty):
		return RoleFaculty, nil
	}
	return "", InvalidField("role", MsgInvalidRole)
}

// Valid reports whether r is one of the two roles.
func (r Role) Valid() bool { return r == RoleStudent || r == RoleFaculty }

// Label is the capitalised role shown on profiles (docs/product.md §2.14).
func (r Role) Label() string {
	switch r {
	case RoleStudent:
		return "Student"
	case RoleFaculty:
		return "Faculty"
	}
	return ""
}
