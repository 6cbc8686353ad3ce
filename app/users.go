package app

import (
	"time"

	"campus/persistence"
)

// Image is the spec's avatar / cover shape: {url, publicId}. An empty URL
// means "none" (the client draws initials).
type Image struct {
	URL      string `json:"url"`
	PublicID string `json:"publicId,omitempty"`
	// ThumbURL is the smallest copy's address, URL itself when there is
	// none (an image from before copies were made, or a small one): what
	// an avatar at 40 px should load.
	ThumbURL string `json:"thumbUrl,omitempty"`
	// Variants are the smaller copies, ascending by width, for srcset.
	Variants []VariantView `json:"variants,omitempty"`
}

// VariantView is one smaller copy of an image: a srcset candidate.
type VariantView struct {
	URL    string `json:"url"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// newImage renders a stored image with its copies.
func newImage(url, key string, variants []persistence.ImageVariant) Image {
	im := Image{URL: url, PublicID: key, ThumbURL: url}
	if url == "" {
		return Image{}
	}
	if len(variants) > 0 {
		im.ThumbURL = variants[0].URL
		im.Variants = variantViews(variants)
	}
	return im
}

func variantViews(vs []persistence.ImageVariant) []VariantView {
	out := make([]VariantView, len(vs))
	for i, v := range vs {
		out[i] = VariantView(v)
	}
	return out
}

// UserView is the user JSON of docs/product.md §3 — the one serializer used for every
// answer that carries a full user. It never includes the password hash.
type UserView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Handle is what an @mention names them by (issue 27).
	Handle       string    `json:"handle"`
	Avatar       Image     `json:"avatar"`
	UniversityID string    `json:"universityId"`
	Email        string    `json:"email,omitempty"`
	CollegeID    string    `json:"collegeId"`
	Role         string    `json:"role"`
	Bio          string    `json:"bio"`
	CoverPhoto   Image     `json:"coverPhoto"`
	Course       string    `json:"course"`
	Batch        string    `json:"batch"`
	Department   string    `json:"department"`
	Location     string    `json:"location"`
	ProfileLikes []string  `json:"profileLikes"`
	CreatedAt    time.Time `json:"createdAt"`
}

// NewUserView renders u for its owner (with e-mail). profileLikes are the
// ids of users who liked u's profile.
func NewUserView(u *persistence.User, profileLikes []string) UserView {
	if profileLikes == nil {
		profileLikes = []string{}
	}
	name := u.Name
	if name == "" {
		name = "User"
	}
	return UserView{
		ID:           u.ID.String(),
		Name:         name,
		Handle:       u.Handle,
		Avatar:       newImage(u.AvatarURL, u.AvatarKey, u.AvatarVariants),
		UniversityID: u.UniversityID,
		Email:        u.Email,
		CollegeID:    u.CollegeID,
		Role:         u.Role,
		Bio:          u.Bio,
		CoverPhoto:   newImage(u.CoverURL, u.CoverKey, u.CoverVariants),
		Course:       u.Course,
		Batch:        u.Batch,
		Department:   u.Department,
		Location:     u.Location,
		ProfileLikes: profileLikes,
		CreatedAt:    u.CreatedAt,
	}
}

// NewPublicUserView renders u for someone else: the e-mail address stays private.
func NewPublicUserView(u *persistence.User, profileLikes []string) UserView {
	v := NewUserView(u, profileLikes)
	v.Email = ""
	return v
}

// UserSummary is the short user shape of docs/product.md §3 used in posts, comments,
// friend lists and requests.
type UserSummary struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Avatar       Image  `json:"avatar"`
	Role         string `json:"role"`
	UniversityID string `json:"universityId"`
	Department   string `json:"department,omitempty"`
}

// NewUserSummary renders the short shape of u.
func NewUserSummary(u *persistence.User) UserSummary {
	name := u.Name
	if name == "" {
		name = "User"
	}
	return UserSummary{
		ID:           u.ID.String(),
		Name:         name,
		Avatar:       newImage(u.AvatarURL, u.AvatarKey, u.AvatarVariants),
		Role:         u.Role,
		UniversityID: u.UniversityID,
		Department:   u.Department,
	}
}
