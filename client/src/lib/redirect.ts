// Full-page navigations (sign-out, 401, socket auth error). A full load is the
// simplest way to drop every piece of the previous user's state — atoms,
// caches, the socket — at once. Tests replace it to observe the target.

// Once a full-page navigation is under way, later ones are dropped: two
// sign-out paths can race (the logout call's answer and the socket closing
// for the revoked token), and a second assign() would abort the first load.
let leaving = false;

let impl: (path: string) => void = (path) => {
  if (leaving) return;
  leaving = true;
  window.location.assign(path);
};

// Where the next full-page navigation goes, whoever asks for it (leaveTo).
let destination: string | null = null;

// Open holds (holdRedirects): while one is open, redirectTo does nothing.
let holds = 0;

export function redirectTo(path: string): void {
  if (holds > 0) return;
  impl(destination ?? path);
}

/**
 * Makes the caller the only one to leave the page until it does: redirectTo
 * does nothing until the returned function is called, which ends the hold and
 * leaves for path. Signing out revokes the token first, so a call or the
 * socket that meets the 401 in between would otherwise take the page to '/'
 * and drop the sign-out's own destination (the login page, or the identity
 * provider's logout).
 */
export function holdRedirects(): (path: string) => void {
  holds++;
  let open = true;
  return (path) => {
    if (open) {
      open = false;
      holds--;
    }
    redirectTo(path);
  };
}

/**
 * Sends the next full-page navigation to path whatever path it asks for;
 * null undoes it. An account's deletion kills its tokens: a call or the
 * socket can meet a 401 and sign out before the deletion's own answer
 * arrives, and the login page must still say the account was deleted.
 */
export function leaveTo(path: string | null): void {
  destination = path;
}

/** Replaces the redirect (tests). Returns a function restoring the previous one. */
export function setRedirect(fn: (path: string) => void): () => void {
  const prev = impl;
  impl = fn;
  return () => {
    impl = prev;
  };
}

// A reload of the page (ui/ChunkBoundary, after a deploy replaced the chunks).
let reloadImpl = () => {
  if (leaving) return;
  leaving = true;
  window.location.reload();
};

export function reloadPage(): void {
  reloadImpl();
}

/** Replaces the reload (tests). Returns a function restoring the previous one. */
export function setReload(fn: () => void): () => void {
  const prev = reloadImpl;
  reloadImpl = fn;
  return () => {
    reloadImpl = prev;
  };
}
