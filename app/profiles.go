package app

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/uptrace/bun"

	"campus/domain"
	"campus/media"
	"campus/persistence"
)

var (
	errUserNotFound   = domain.NotFound("User not found")
	errLikeOwnProfile = domain.Invalid("You cannot like your own profile")
	errAvatarNotYours = domain.InvalidField("avatar", domain.MsgNotYourImage)
	errCoverNotYours  = domain.InvalidField("coverPhoto", domain.MsgNotYourImage)
)

// errImageFieldNeeded answers an upload without a file in field.
func errImageFieldNeeded(field string) error {
	return domain.InvalidField(field, "Please select an image file")
}

// ImageStore stores uploaded images; media.Store implements it.
type ImageStore interface {
	Save(ctx context.Context, r io.Reader) (media.Image, error)
	Delete(key string) error
}

// ProfilesDeps are what the profile use cases need.
type ProfilesDeps struct {
	DB    *bun.DB
	Media ImageStore
	// Notifier tells the owner of a liked profile (a rolled-up
	// profile_like notification); nil: no notification.
	Notifier Notifier
	Log      zerolog.Logger
}

// Notifier creates a notification for a user through their user grain,
// which stores it (rolled up where the kind rolls up) and pushes it live
// (actors.Live implements it).
type Notifier interface {
	NotifyUser(ctx context.Context, userID uuid.UUID, typ string, sender uuid.UUID) error
}

// Profiles serves both profile families of docs/product.md §7.2 and §7.3 over the same
// data: reading, editing, avatar and cover uploads, setup and profile likes.
type Profiles struct {
	d ProfilesDeps
}

// NewProfiles wires the profile use cases.
func NewProfiles(d ProfilesDeps) *Profiles {
	return &Profiles{d: d}
}

// ExperienceView is one experience entry.
type ExperienceView struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Organization string `json:"organization"`
	Location     string `json:"location"`
	StartDate    string `json:"startDate"`
	EndDate      string `json:"endDate"`
	Description  string `json:"description"`
}

// ProfileView is a whole profile (GET /profile/me, /profile/{id} and the
// answer of every profile edit): the user's fields plus the profile extras
// and the numbers of the stat tiles.
type ProfileView struct {
	UserView
	Education       persistence.Education     `json:"education"`
	Skills          []persistence.Skill       `json:"skills"`
	Achievements    []persistence.Achievement `json:"achievements"`
	Interests       []string                  `json:"interests"`
	Experience      []ExperienceView          `json:"experience"`
	LikesCount      int                       `json:"likesCount"`
	IsLikedByViewer bool                      `json:"isLikedByViewer"`
	PostsCount      int                       `json:"postsCount"`
	FriendsCount    int                       `json:"friendsCount"`
	SetupCompleted  bool                      `json:"setupCompleted"`
	// Suspended marks, for the moderators who alone still see it, a
	// profile hidden by its account's suspension.
	Suspended bool `json:"suspended,omitempty"`
}

// UserResult answers the /users calls that carry one user: {user}.
type UserResult struct {
	User UserView `json:"user"`
}

// Me is the caller's own profile.
func (a *Profiles) Me(ctx context.Context, p Principal) (ProfileView, error) {
	return a.Profile(ctx, p, p.UserID)
}

// Profile is the profile of user id as the caller sees it: the caller's own
// carries the e-mail address, anyone else's does not.
func (a *Profiles) Profile(ctx context.Context, p Principal, id uuid.UUID) (ProfileView, error) {
	u, suspended, err := a.visibleUser(ctx, p, id)
	if err != nil {
		return ProfileView{}, err
	}
	v, err := a.view(ctx, p, u)
	v.Suspended = suspended
	return v, err
}

// User is user id in the short form of GET /users/{id}: {user}, without the
// e-mail address unless it is the caller.
func (a *Profiles) User(ctx context.Context, p Principal, id uuid.UUID) (UserResult, error) {
	u, _, err := a.visibleUser(ctx, p, id)
	if err != nil {
		return UserResult{}, err
	}
	v, err := a.userView(ctx, p, u)
	return UserResult{User: v}, err
}

// visibleUser loads id for the caller: themselves, or a verified account
// that neither a block nor a suspension hides from them. suspended says the
// account is suspended (and the caller a moderator, who still sees it).
func (a *Profiles) visibleUser(ctx context.Context, p Principal, id uuid.UUID) (u *persistence.User, suspended bool, err error) {
	if id == p.UserID {
		u, err = persistence.UserByID(ctx, a.d.DB, id)
	} else {
		u, err = persistence.VerifiedUserByID(ctx, a.d.DB, id)
	}
	if isNotFound(err) {
		return nil, false, errUserNotFound
	}
	if err != nil {
		return nil, false, err
	}
	// A block hides each from the other as if the account were gone.
	if blocked, err := blockedWith(ctx, a.d.DB, p.UserID, id); err != nil {
		return nil, false, err
	} else if blocked {
		return nil, false, errUserNotFound
	}
	suspended, hidden, err := suspendedFor(ctx, a.d.DB, p.UserID, id)
	if err != nil {
		return nil, false, err
	}
	if hidden {
		return nil, false, errUserNotFound
	}
	return u, suspended, nil
}

// suspendedFor answers whether user's account is suspended now, and
// whether that hides it (its profile and everything it wrote) from viewer:
// from everyone but the account itself and moderators (README, Safety and
// moderation).
func suspendedFor(ctx context.Context, db bun.IDB, viewer, user uuid.UUID) (suspended, hidden bool, err error) {
	s, err := persistence.SuspensionOf(ctx, db, user)
	if err != nil || s == nil || viewer == user {
		return s != nil, false, err
	}
	c, err := capabilitiesOf(ctx, db, viewer)
	if err != nil {
		return false, false, err
	}
	return true, !c.Moderator, nil
}

func (a *Profiles) userView(ctx context.Context, p Principal, u *persistence.User) (UserView, error) {
	likers, err := persistence.ProfileLikers(ctx, a.d.DB, u.ID)
	if err != nil {
		return UserView{}, err
	}
	if u.ID == p.UserID {
		return NewUserView(u, likers), nil
	}
	return NewPublicUserView(u, likers), nil
}

func (a *Profiles) view(ctx context.Context, p Principal, u *persistence.User) (ProfileView, error) {
	uv, err := a.userView(ctx, p, u)
	if err != nil {
		return ProfileView{}, err
	}
	pr, err := persistence.ProfileOf(ctx, a.d.DB, u.ID)
	if err != nil {
		return ProfileView{}, err
	}
	exp, err := persistence.ExperienceOf(ctx, a.d.DB, u.ID)
	if err != nil {
		return ProfileView{}, err
	}
	counts, err := persistence.CountsOf(ctx, a.d.DB, u.ID, p.UserID)
	if err != nil {
		return ProfileView{}, err
	}
	liked := false
	if u.ID != p.UserID {
		if liked, err = persistence.ProfileLikedBy(ctx, a.d.DB, u.ID, p.UserID); err != nil {
			return ProfileView{}, err
		}
	}
	v := ProfileView{
		UserView:        uv,
		Education:       pr.Education,
		Skills:          pr.Skills,
		Achievements:    pr.Achievements,
		Interests:       pr.Interests,
		Experience:      make([]ExperienceView, 0, len(exp)),
		LikesCount:      pr.LikesCount,
		IsLikedByViewer: liked,
		PostsCount:      counts.Posts,
		FriendsCount:    counts.Friends,
		SetupCompleted:  !pr.SetupCompletedAt.IsZero(),
	}
	for _, e := range exp {
		v.Experience = append(v.Experience, ExperienceView{
			ID: e.ID.String(), Title: e.Title, Organization: e.Organization, Location: e.Location,
			StartDate: e.StartDate, EndDate: e.EndDate, Description: e.Description,
		})
	}
	return v, nil
}

// UpdateProfile applies a profile edit (PATCH /profile, and the PUT calls
// for one section) and answers the whole profile.
func (a *Profiles) UpdateProfile(ctx context.Context, p Principal, in domain.ProfileInput) (ProfileView, error) {
	if err := a.apply(ctx, p, in); err != nil {
		return ProfileView{}, err
	}
	return a.Me(ctx, p)
}

// UpdateSection replaces one section of the profile (PUT /profile/education,
// /experience, /skills): the section must be present, other fields are
// ignored.
func (a *Profiles) UpdateSection(ctx context.Context, p Principal, section string, in domain.ProfileInput) (ProfileView, error) {
	only, err := in.Only(section)
	if err != nil {
		return ProfileView{}, err
	}
	return a.UpdateProfile(ctx, p, only)
}

// UpdateMe applies a profile edit through PATCH /users/me and answers
// {user}.
func (a *Profiles) UpdateMe(ctx context.Context, p Principal, in domain.ProfileInput) (UserResult, error) {
	if err := a.apply(ctx, p, in); err != nil {
		return UserResult{}, err
	}
	return a.User(ctx, p, p.UserID)
}

// apply validates and writes an edit in one transaction.
func (a *Profiles) apply(ctx context.Context, p Principal, in domain.ProfileInput) error {
	patch, err := in.Validate()
	if err != nil {
		return err
	}
	err = a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if patch.TouchesUser() {
			f := persistence.UserFields{Name: patch.Name, Bio: patch.Bio, Location: patch.Location}
			if err := persistence.UpdateUserFields(ctx, tx, p.UserID, f); err != nil {
				return err
			}
		}
		pr := &persistence.Profile{UserID: p.UserID}
		var cols []string
		if patch.Education != nil {
			e := *patch.Education
			pr.Education = persistence.Education{Degree: e.Degree, Institution: e.Institution, Years: e.Years}
			cols = append(cols, persistence.ColEducation)
		}
		if patch.Skills != nil {
			pr.Skills = make([]persistence.Skill, 0, len(*patch.Skills))
			for _, s := range *patch.Skills {
				pr.Skills = append(pr.Skills, persistence.Skill{Name: s.Name, Proficiency: s.Proficiency})
			}
			cols = append(cols, persistence.ColSkills)
		}
		if patch.Achievements != nil {
			pr.Achievements = make([]persistence.Achievement, 0, len(*patch.Achievements))
			for _, x := range *patch.Achievements {
				pr.Achievements = append(pr.Achievements, persistence.Achievement{Title: x.Title, Description: x.Description, Year: x.Year})
			}
			cols = append(cols, persistence.ColAchievements)
		}
		if patch.Interests != nil {
			pr.Interests = *patch.Interests
			cols = append(cols, persistence.ColInterests)
		}
		if len(cols) > 0 {
			if err := persistence.SaveProfile(ctx, tx, pr, cols...); err != nil {
				return err
			}
		}
		if patch.Experience != nil {
			entries := make([]persistence.Experience, 0, len(*patch.Experience))
			for _, x := range *patch.Experience {
				entries = append(entries, persistence.Experience{
					Title: x.Title, Organization: x.Organization, Location: x.Location,
					StartDate: x.StartDate, EndDate: x.EndDate, Description: x.Description,
				})
			}
			if err := persistence.ReplaceExperience(ctx, tx, p.UserID, entries); err != nil {
				return err
			}
		}
		return nil
	})
	if isNotFound(err) {
		return errUserNotFound
	}
	return err
}

// AvatarResult answers an avatar upload: data.avatar {url, publicId}, and
// the updated user for screens that show it at once.
type AvatarResult struct {
	Avatar Image    `json:"avatar"`
	User   UserView `json:"user"`
}

// CoverResult answers a cover upload: data.coverPhoto {url, publicId}; the
// other reading of docs/product.md §7.3, coverPhotoUrl, is there too.
type CoverResult struct {
	CoverPhoto    Image    `json:"coverPhoto"`
	CoverPhotoURL string   `json:"coverPhotoUrl"`
	User          UserView `json:"user"`
}

// UploadAvatar stores r as the caller's new avatar. r is nil when the
// request carried no file.
func (a *Profiles) UploadAvatar(ctx context.Context, p Principal, r io.Reader) (AvatarResult, error) {
	img, u, err := a.upload(ctx, p, r, persistence.ImageAvatar)
	if err != nil {
		return AvatarResult{}, err
	}
	v, err := a.userView(ctx, p, u)
	return AvatarResult{Avatar: img, User: v}, err
}

// UploadCover stores r as the caller's new cover photo.
func (a *Profiles) UploadCover(ctx context.Context, p Principal, r io.Reader) (CoverResult, error) {
	img, u, err := a.upload(ctx, p, r, persistence.ImageCover)
	if err != nil {
		return CoverResult{}, err
	}
	v, err := a.userView(ctx, p, u)
	return CoverResult{CoverPhoto: img, CoverPhotoURL: img.URL, User: v}, err
}

// upload saves the file, points the user at it, and only after the commit
// deletes the file it replaced. If anything fails after the file was saved,
// the new file is deleted: a failed upload leaves nothing behind.
func (a *Profiles) upload(ctx context.Context, p Principal, r io.Reader, which string) (Image, *persistence.User, error) {
	if r == nil {
		field := "avatar"
		if which == persistence.ImageCover {
			field = "coverPhoto"
		}
		return Image{}, nil, errImageFieldNeeded(field)
	}
	saved, err := a.d.Media.Save(ctx, r)
	if err != nil {
		return Image{}, nil, err
	}
	var old string
	var u *persistence.User
	err = a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = persistence.SetUserImage(ctx, tx, p.UserID, which, saved.URL, saved.Key, storedVariants(saved)); err != nil {
			return err
		}
		u, err = persistence.UserByID(ctx, tx, p.UserID)
		return err
	})
	if err != nil {
		a.removeFile(saved.Key, "failed "+which+" upload")
		if isNotFound(err) {
			return Image{}, nil, errUserNotFound
		}
		return Image{}, nil, err
	}
	if old != "" && old != saved.Key {
		a.removeFile(old, "replaced "+which)
	}
	a.d.Log.Info().Str("user_id", p.UserID.String()).Str("media_key", saved.Key).Str("kind", which).Msg("profile image uploaded")
	return newImage(saved.URL, saved.Key, storedVariants(saved)), u, nil
}

// storedVariants is what the database keeps of an image's copies.
func storedVariants(im media.Image) persistence.ImageVariants {
	if len(im.Variants) == 0 {
		return nil
	}
	out := make(persistence.ImageVariants, len(im.Variants))
	for i, v := range im.Variants {
		out[i] = persistence.ImageVariant{URL: v.URL, Width: v.Width, Height: v.Height}
	}
	return out
}

// removeFile deletes a stored file whose row is gone; a failure leaves only
// litter, so it is logged, not returned.
func (a *Profiles) removeFile(key, why string) {
	if err := a.d.Media.Delete(key); err != nil {
		a.d.Log.Warn().Err(err).Str("media_key", key).Str("reason", why).Msg("delete media file")
	}
}

// SetupResult answers POST /profile/setup: name, avatar, coverPhoto, bio
// (docs/product.md §3), plus the updated user.
type SetupResult struct {
	Name       string   `json:"name"`
	Avatar     Image    `json:"avatar"`
	CoverPhoto Image    `json:"coverPhoto"`
	Bio        string   `json:"bio"`
	User       UserView `json:"user"`
}

// Setup completes onboarding's profile setup. The avatar and cover photo it
// names must be the caller's current uploads (made through the avatar and
// cover calls); it never stores a URL a client made up. A skipped setup
// (no name, no images) keeps what signup stored.
func (a *Profiles) Setup(ctx context.Context, p Principal, in domain.ProfileSetupInput) (SetupResult, error) {
	s, err := in.Validate()
	if err != nil {
		return SetupResult{}, err
	}
	var u *persistence.User
	err = a.d.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		// Locked, so an upload cannot swap the images between check and commit.
		cur := new(persistence.User)
		err := tx.NewSelect().Model(cur).Where("u.id = ?", p.UserID).For("UPDATE").Scan(ctx)
		if errors.Is(err, sql.ErrNoRows) {
			return errUserNotFound
		}
		if err != nil {
			return fmt.Errorf("app: lock user for setup: %w", err)
		}
		if !ownsImage(s.Avatar, cur.AvatarURL, cur.AvatarKey) {
			return errAvatarNotYours
		}
		if !ownsImage(s.CoverPhoto, cur.CoverURL, cur.CoverKey) {
			return errCoverNotYours
		}
		f := persistence.UserFields{Bio: s.Bio}
		if s.Name != "" {
			f.Name = &s.Name
		}
		if err := persistence.UpdateUserFields(ctx, tx, p.UserID, f); err != nil {
			return err
		}
		if err := persistence.MarkProfileSetup(ctx, tx, p.UserID); err != nil {
			return err
		}
		u, err = persistence.UserByID(ctx, tx, p.UserID)
		return err
	})
	if err != nil {
		return SetupResult{}, err
	}
	v, err := a.userView(ctx, p, u)
	if err != nil {
		return SetupResult{}, err
	}
	return SetupResult{Name: v.Name, Avatar: v.Avatar, CoverPhoto: v.CoverPhoto, Bio: v.Bio, User: v}, nil
}

// ownsImage reports whether ref names the user's current image (url, key):
// by publicId when it carries one, else by url. An empty ref names nothing
// and is always fine.
func ownsImage(ref domain.ImageRef, url, key string) bool {
	switch {
	case ref.IsZero():
		return true
	case ref.PublicID != "":
		return key != "" && ref.PublicID == key && (ref.URL == "" || ref.URL == url)
	default:
		return url != "" && ref.URL == url
	}
}

// LikeResult answers a like or unlike of a post or a profile.
type LikeResult struct {
	IsLiked    bool `json:"isLiked"`
	LikesCount int  `json:"likesCount"`
	// CountsVersion is the post's counts version with LikesCount (see
	// PostView); profiles have none.
	CountsVersion int64 `json:"countsVersion,omitempty"`
}

// Like likes user id's profile; liking twice is liking once. Liking one's
// own profile is refused.
func (a *Profiles) Like(ctx context.Context, p Principal, id uuid.UUID) (LikeResult, error) {
	return a.like(ctx, p, id, true)
}

// Unlike takes the caller's like of user id's profile back, if any.
func (a *Profiles) Unlike(ctx context.Context, p Principal, id uuid.UUID) (LikeResult, error) {
	return a.like(ctx, p, id, false)
}

func (a *Profiles) like(ctx context.Context, p Principal, id uuid.UUID, like bool) (LikeResult, error) {
	if id == p.UserID {
		return LikeResult{}, errLikeOwnProfile
	}
	if _, _, err := a.visibleUser(ctx, p, id); err != nil {
		return LikeResult{}, err
	}
	var n int
	var err error
	if like {
		n, err = persistence.LikeProfile(ctx, a.d.DB, id, p.UserID)
	} else {
		n, err = persistence.UnlikeProfile(ctx, a.d.DB, id, p.UserID)
	}
	if err != nil {
		if _, fk := isForeignKeyViolation(err); fk {
			return LikeResult{}, errUserNotFound // deleted in between
		}
		return LikeResult{}, err
	}
	if like && a.d.Notifier != nil {
		// After the like committed; a lost notification loses no like, so
		// a failure is logged, not answered. The grain skips it when a
		// block now stands between the two.
		nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTimeout)
		defer cancel()
		if err := a.d.Notifier.NotifyUser(nctx, id, persistence.NotifyProfileLike, p.UserID); err != nil {
			a.d.Log.Warn().Err(err).Str("user_id", id.String()).Msg("profile like notification failed")
		}
	}
	return LikeResult{IsLiked: like, LikesCount: n}, nil
}

// isForeignKeyViolation reports whether err is Postgres refusing a row whose
// referenced row is gone.
func isForeignKeyViolation(err error) (string, bool) {
	type pgErr interface{ Field(byte) string }
	var pe pgErr
	if errors.As(err, &pe) && pe.Field('C') == "23503" {
		return pe.Field('n'), true
	}
	return "", false
}
