package app

import (
	"errors"

	"campus/domain"
	"campus/persistence"
)

// IsUnavailable reports whether err means something a request needed was
// briefly out of reach, not that the request or the code was wrong: the
// database unreachable or restarting (persistence.IsUnavailable decides
// that), or a grain whose write failed. The caller may send the request
// again in a moment (503 with Retry-After).
func IsUnavailable(err error) bool {
	return persistence.IsUnavailable(err) || errors.Is(err, domain.ErrWriteFailed)
}
