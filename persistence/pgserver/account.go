package pgserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// account is the OS user that runs initdb and postgres.
type account struct {
	name string
	uid  int
	gid  int
	// cred is set only when we are root and must drop to an unprivileged
	// user: initdb and postgres refuse to run as root.
	cred *syscall.Credential
}

// runAccount returns the current user, or the `postgres` user when running
// as root.
func runAccount() (account, error) {
	if os.Geteuid() != 0 {
		return account{name: "current user", uid: os.Geteuid(), gid: os.Getegid()}, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return account{}, fmt.Errorf("pgserver: running as root needs the unprivileged `postgres` user to run the database (apt-get install postgresql creates it), or run campus as a regular user: %w", err)
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return account{}, fmt.Errorf("pgserver: postgres uid %q: %w", u.Uid, err)
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return account{}, fmt.Errorf("pgserver: postgres gid %q: %w", u.Gid, err)
	}
	return account{
		name: "postgres",
		uid:  uid,
		gid:  gid,
		// Groups is empty on purpose: the child must not keep root's
		// supplementary groups.
		cred: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)},
	}, nil
}

// switched reports whether the children run as another user than us.
func (a account) switched() bool { return a.cred != nil }

// chown gives path to the account when it is not us; a no-op otherwise.
func (a account) chown(path string) error {
	if !a.switched() {
		return nil
	}
	if err := os.Lchown(path, a.uid, a.gid); err != nil {
		return fmt.Errorf("pgserver: chown %s to %s: %w", path, a.name, err)
	}
	return nil
}

// chownTree gives a whole tree to the account, for a data directory that
// an earlier run created as another user; postgres insists on owning it.
func (a account) chownTree(root string) error {
	if !a.switched() {
		return nil
	}
	err := filepath.WalkDir(root, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, a.uid, a.gid)
	})
	if err != nil {
		return fmt.Errorf("pgserver: chown %s to %s: %w", root, a.name, err)
	}
	return nil
}

// owns reports whether path belongs to the account.
func (a account) owns(path string) (bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, fmt.Errorf("pgserver: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false, errors.New("pgserver: no owner information on this platform")
	}
	return int(st.Uid) == a.uid, nil
}

// checkTraversable makes sure the account can reach dir: every ancestor
// needs the execute bit that applies to it. Without this, postgres fails
// later with a message that does not say which directory is at fault.
func (a account) checkTraversable(dir string) error {
	if !a.switched() {
		return nil
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("pgserver: %w", err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return errors.New("pgserver: no owner information on this platform")
		}
		if !canTraverse(fi.Mode().Perm(), int(st.Uid), int(st.Gid), a.uid, a.gid) {
			return fmt.Errorf("pgserver: user %s cannot reach %s because %s (mode %o) is not traversable by it: run `chmod o+x %s` or choose a data directory elsewhere", a.name, dir, p, fi.Mode().Perm(), p)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// canTraverse applies the owner, group, other rule for the execute bit.
func canTraverse(perm fs.FileMode, ownerUID, ownerGID, uid, gid int) bool {
	switch {
	case ownerUID == uid:
		return perm&0o100 != 0
	case ownerGID == gid:
		return perm&0o010 != 0
	default:
		return perm&0o001 != 0
	}
}
