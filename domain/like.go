package domain

// LikeAction is what a like call asks for, from the HTTP route down to the
// statement that applies it: POST likes, DELETE unlikes, PATCH toggles. Like
// and Unlike are idempotent; ToggleLike flips whatever the state is when the
// action is applied, in its batch's order. The grains carry it as their
// protobuf enum, converted at that edge only (package actors).
type LikeAction int8

// The like actions.
const (
	Like LikeAction = iota + 1
	Unlike
	ToggleLike
)

// Valid reports whether a is one of the like actions.
func (a LikeAction) Valid() bool { return a >= Like && a <= ToggleLike }
