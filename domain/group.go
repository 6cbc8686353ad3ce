package domain

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Groups (issue 18): courses, clubs, departments and event spaces. This file
// holds their rules: handles, kinds, visibility, roles, the membership
// state machine and who may do what. Nothing here does I/O.

// Group kinds.
const (
	GroupKindCourse     = "course"
	GroupKindClub       = "club"
	GroupKindDepartment = "department"
	GroupKindEvent      = "event"
	GroupKindOther      = "other"
)

// Group visibilities: public (anyone reads and joins), closed (anyone reads
// the about page; members read posts; joining needs approval), secret
// (invisible to non-members; join by invitation).
const (
	GroupPublic = "public"
	GroupClosed = "closed"
	GroupSecret = "secret"
)

// Roles in a group.
const (
	RoleOwner  = "owner"
	RoleAdmin  = "admin"
	RoleMember = "member"
)

// Membership statuses. StatusNone is no row at all.
const (
	StatusNone      = "none"
	StatusMember    = "member"
	StatusRequested = "requested"
	StatusInvited   = "invited"
)

// Messages of groups.
const (
	MsgGroupNotFound     = "Group not found"
	MsgGroupHandle       = "Handle must be 3-30 characters: lower-case letters, digits and '-', not starting or ending with '-'."
	MsgGroupHandleTaken  = "This handle is already taken."
	MsgGroupName         = "Group name must be 1-80 characters long."
	MsgGroupDescription  = "Description must be at most 2000 characters long."
	MsgGroupKind         = "Kind must be one of course, club, department, event, other."
	MsgGroupVisibility   = "Visibility must be one of public, closed, secret."
	MsgGroupEventTimes   = "An event needs a start and an end, and the end must come after the start."
	MsgGroupTimesNoEvent = "Only an event has a start and an end."
	MsgGroupCourse       = "A course needs a program (letters) and a batch (digits), e.g. BCA and 20."
	MsgGroupCourseKind   = "Only a course group can be opened to a program and batch."
	MsgGroupNotAdmin     = "Only the group's owner or admins can do this."
	MsgGroupNotOwner     = "Only the group's owner can do this."
	MsgGroupNotMember    = "Only members of the group can do this."
	MsgGroupAlready      = "You are already a member of this group."
	MsgGroupOwnerLeaves  = "Transfer ownership to another member before leaving."
	MsgGroupNoRequest    = "There is no such join request."
	MsgGroupNoInvitation = "There is no such invitation."
	MsgGroupNotAMember   = "This person is not a member of the group."
	MsgGroupCannotRemove = "Admins can remove members only, not the owner or other admins."
	MsgGroupRole         = "Role must be admin or member."
	MsgGroupInviteMember = "This person is already a member or invited."
	MsgGroupPinPost      = "Only a post of this group can be pinned."
	MsgGroupSelf         = "You cannot do this to yourself."
)

// Limits of groups.
const (
	MaxGroupName         = 80
	MaxGroupDescription  = 2000
	minHandle, maxHandle = 3, 30
)

// NormalizeHandle is the form a handle is stored and looked up in.
func NormalizeHandle(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ValidHandle reports whether h (already normalized) is a group handle:
// 3-30 of a-z, 0-9 and '-', not starting or ending with '-'.
func ValidHandle(h string) bool {
	if len(h) < minHandle || len(h) > maxHandle || h[0] == '-' || h[len(h)-1] == '-' {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// GroupCourse is the program and batch a course group is opened to.
type GroupCourse struct {
	Program string `json:"program"`
	Batch   string `json:"batch"`
}

func (c *GroupCourse) normalize() (*GroupCourse, error) {
	if c == nil {
		return nil, nil
	}
	n := &GroupCourse{Program: strings.ToUpper(strings.TrimSpace(c.Program)), Batch: strings.TrimSpace(c.Batch)}
	if !allLetters(n.Program) || len(n.Program) > 16 || !allDigits(n.Batch) || len(n.Batch) > 4 {
		return nil, InvalidField("course", MsgGroupCourse)
	}
	return n, nil
}

func allLetters(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// CourseEligible reports whether a person with the university ID uid may
// join a course group opened to c in one click: the ID's program and batch
// match. Faculty (no ID) and malformed IDs are never eligible.
func CourseEligible(c *GroupCourse, uid string) bool {
	if c == nil || uid == "" {
		return false
	}
	id, err := ParseUniversityID(uid)
	if err != nil {
		return false
	}
	return id.Program == c.Program && id.Batch == c.Batch
}

// GroupInput is a new group as a client sends it.
type GroupInput struct {
	Name        string       `json:"name"`
	Handle      string       `json:"handle"`
	Description string       `json:"description"`
	Kind        string       `json:"kind"`
	Visibility  string       `json:"visibility"`
	StartsAt    *time.Time   `json:"startsAt"`
	EndsAt      *time.Time   `json:"endsAt"`
	Course      *GroupCourse `json:"course"`
}

// Group is a validated group's editable fields.
type Group struct {
	Name, Handle, Description, Kind, Visibility string
	StartsAt, EndsAt                            time.Time // zero unless an event
	Course                                      *GroupCourse
}

// Validate checks a new group.
func (in GroupInput) Validate() (Group, error) {
	g := Group{Handle: NormalizeHandle(in.Handle)}
	if !ValidHandle(g.Handle) {
		return g, InvalidField("handle", MsgGroupHandle)
	}
	g.Kind = strings.ToLower(strings.TrimSpace(in.Kind))
	switch g.Kind {
	case GroupKindCourse, GroupKindClub, GroupKindDepartment, GroupKindEvent, GroupKindOther:
	default:
		return g, InvalidField("kind", MsgGroupKind)
	}
	p := GroupPatch{Name: &in.Name, Description: &in.Description, Visibility: &in.Visibility,
		StartsAt: in.StartsAt, EndsAt: in.EndsAt, Course: in.Course}
	return p.Apply(g)
}

// GroupPatch is an edit of a group: nil fields stay as they are.
type GroupPatch struct {
	Name        *string      `json:"name"`
	Description *string      `json:"description"`
	Visibility  *string      `json:"visibility"`
	StartsAt    *time.Time   `json:"startsAt"`
	EndsAt      *time.Time   `json:"endsAt"`
	Course      *GroupCourse `json:"course"`
}

// Apply validates the patch against g (the group as it is; Kind and Handle
// set) and answers the group after it.
func (p GroupPatch) Apply(g Group) (Group, error) {
	if p.Name != nil {
		g.Name = strings.TrimSpace(*p.Name)
	}
	if n := utf8.RuneCountInString(g.Name); n == 0 || n > MaxGroupName || !ValidText(g.Name) {
		return g, InvalidField("name", MsgGroupName)
	}
	if p.Description != nil {
		g.Description = strings.TrimSpace(*p.Description)
	}
	if utf8.RuneCountInString(g.Description) > MaxGroupDescription || !ValidText(g.Description) {
		return g, InvalidField("description", MsgGroupDescription)
	}
	if p.Visibility != nil {
		g.Visibility = strings.ToLower(strings.TrimSpace(*p.Visibility))
	}
	switch g.Visibility {
	case GroupPublic, GroupClosed, GroupSecret:
	default:
		return g, InvalidField("visibility", MsgGroupVisibility)
	}
	if p.StartsAt != nil {
		g.StartsAt = p.StartsAt.UTC()
	}
	if p.EndsAt != nil {
		g.EndsAt = p.EndsAt.UTC()
	}
	if g.Kind == GroupKindEvent {
		if g.StartsAt.IsZero() || g.EndsAt.IsZero() || !g.EndsAt.After(g.StartsAt) {
			return g, InvalidField("endsAt", MsgGroupEventTimes)
		}
	} else if !g.StartsAt.IsZero() || !g.EndsAt.IsZero() {
		return g, InvalidField("startsAt", MsgGroupTimesNoEvent)
	}
	if p.Course != nil {
		if g.Kind != GroupKindCourse {
			return g, InvalidField("course", MsgGroupCourseKind)
		}
		c, err := p.Course.normalize()
		if err != nil {
			return g, err
		}
		g.Course = c
	}
	return g, nil
}

// Membership is one person's standing in a group: Status (StatusNone when
// there is no row) and, for members, Role.
type Membership struct {
	Status string
	Role   string
}

// IsMember reports whether m is a member (of any role).
func (m Membership) IsMember() bool { return m.Status == StatusMember }

// IsAdmin reports whether m is the owner or an admin.
func (m Membership) IsAdmin() bool {
	return m.IsMember() && (m.Role == RoleOwner || m.Role == RoleAdmin)
}

// IsOwner reports whether m owns the group.
func (m Membership) IsOwner() bool { return m.IsMember() && m.Role == RoleOwner }

// CanSeeGroup reports whether the group's about page exists for m: a
// secret group is invisible to everyone but members and invitees.
func CanSeeGroup(visibility string, m Membership) bool {
	return visibility != GroupSecret || m.IsMember() || m.Status == StatusInvited
}

// CanReadPosts reports whether m reads the group's posts (and members list).
func CanReadPosts(visibility string, m Membership) bool {
	return visibility == GroupPublic || m.IsMember()
}

// JoinGroup is what a join asks of m's membership: the status after it. A
// public group, an invitation or a course group m is eligible for make a
// member at once; a closed group makes a request; a secret group without an
// invitation does not exist for m.
func JoinGroup(visibility string, m Membership, courseEligible bool) (string, error) {
	switch {
	case m.IsMember():
		return "", Conflict(MsgGroupAlready)
	case m.Status == StatusInvited, visibility == GroupPublic, courseEligible && visibility != GroupSecret:
		return StatusMember, nil
	case visibility == GroupClosed:
		return StatusRequested, nil // again when already requested: idempotent
	default:
		return "", NotFound(MsgGroupNotFound)
	}
}

// Leave checks that m may leave: a member who is not the owner.
func Leave(m Membership) error {
	switch {
	case !m.IsMember():
		return Forbidden(MsgGroupNotMember)
	case m.Role == RoleOwner:
		return Conflict(MsgGroupOwnerLeaves)
	}
	return nil
}

// CanInvite checks that m may invite someone whose standing is target:
// members of public and closed groups, admins of secret ones; the invitee
// must be neither a member nor already invited. (A pending request is
// answered by the invitation: it lets them in.)
func CanInvite(visibility string, m, target Membership) error {
	switch {
	case !m.IsMember():
		return Forbidden(MsgGroupNotMember)
	case visibility == GroupSecret && !m.IsAdmin():
		return Forbidden(MsgGroupNotAdmin)
	case target.IsMember() || target.Status == StatusInvited:
		return Conflict(MsgGroupInviteMember)
	}
	return nil
}

// CanRemove checks that actor may remove target from the group: the owner
// removes anyone else; an admin removes plain members only.
func CanRemove(actor, target Membership) error {
	switch {
	case !actor.IsAdmin():
		return Forbidden(MsgGroupNotAdmin)
	case !target.IsMember():
		return NotFound(MsgGroupNotAMember)
	case target.Role == RoleOwner:
		return Forbidden(MsgGroupCannotRemove)
	case actor.Role == RoleAdmin && target.Role != RoleMember:
		return Forbidden(MsgGroupCannotRemove)
	}
	return nil
}

// CanSetRole checks that actor may give target the role: owner only, to a
// member who is not the owner, admin or member.
func CanSetRole(actor, target Membership, role string) error {
	switch {
	case !actor.IsOwner():
		return Forbidden(MsgGroupNotOwner)
	case role != RoleAdmin && role != RoleMember:
		return InvalidField("role", MsgGroupRole)
	case !target.IsMember():
		return NotFound(MsgGroupNotAMember)
	case target.Role == RoleOwner:
		return Forbidden(MsgGroupSelf)
	}
	return nil
}

// CanTransfer checks that actor (the owner) may hand the group to target,
// another member.
func CanTransfer(actor, target Membership) error {
	switch {
	case !actor.IsOwner():
		return Forbidden(MsgGroupNotOwner)
	case !target.IsMember():
		return NotFound(MsgGroupNotAMember)
	case target.Role == RoleOwner:
		return Forbidden(MsgGroupSelf)
	}
	return nil
}
