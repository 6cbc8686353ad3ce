// The Connect button on another user's profile (docs/product.md §4 Connect button), as
// a pure state machine: Connect → 'Sending...' → 'Request Sent' (or
// 'Connected' when the answer says they are friends now), and 'Removing...'
// while unfriending. On load a sent request marks 'sent' and being friends
// clears it. Ours where the spec is silent: a request *from* them reads
// 'Accept Request' and accepting makes them friends.

export type ConnectState = 'connect' | 'sending' | 'sent' | 'connected' | 'removing' | 'received' | 'accepting';

export type ConnectEvent =
  | { type: 'loaded'; isFriend: boolean; requestSent: boolean; requestReceived: boolean }
  | { type: 'sendStart' }
  | { type: 'sendDone'; accepted: boolean }
  | { type: 'sendFailed' }
  | { type: 'removeStart' }
  | { type: 'removeDone' }
  | { type: 'removeFailed' }
  | { type: 'acceptStart' }
  | { type: 'acceptDone' }
  | { type: 'acceptFailed' };

/** States with a call in flight: a fresh check must not override them. */
export function isBusy(s: ConnectState): boolean {
  return s === 'sending' || s === 'removing' || s === 'accepting';
}

export function connectReducer(s: ConnectState, e: ConnectEvent): ConnectState {
  switch (e.type) {
    case 'loaded':
      if (isBusy(s)) return s;
      if (e.isFriend) return 'connected'; // being a friend clears 'sent'
      if (e.requestSent) return 'sent';
      if (e.requestReceived) return 'received';
      return 'connect';
    case 'sendStart':
      return s === 'connect' ? 'sending' : s;
    case 'sendDone':
      return s === 'sending' ? (e.accepted ? 'connected' : 'sent') : s;
    case 'sendFailed':
      return s === 'sending' ? 'connect' : s;
    case 'removeStart':
      return s === 'connected' ? 'removing' : s;
    case 'removeDone':
      return s === 'removing' ? 'connect' : s;
    case 'removeFailed':
      return s === 'removing' ? 'connected' : s;
    case 'acceptStart':
      return s === 'received' ? 'accepting' : s;
    case 'acceptDone':
      return s === 'accepting' ? 'connected' : s;
    case 'acceptFailed':
      return s === 'accepting' ? 'received' : s;
  }
}

/** What a click does in this state ('sent' does nothing more; busy states nothing at all). */
export function connectAction(s: ConnectState): 'send' | 'unfriend' | 'accept' | null {
  if (s === 'connect') return 'send';
  if (s === 'connected') return 'unfriend';
  if (s === 'received') return 'accept';
  return null;
}

export function connectLabel(s: ConnectState): string {
  switch (s) {
    case 'connect':
      return 'Connect';
    case 'sending':
      return 'Sending...';
    case 'sent':
      return 'Request Sent';
    case 'connected':
      return 'Connected';
    case 'removing':
      return 'Removing...';
    case 'received':
      return 'Accept Request';
    case 'accepting':
      return 'Accepting...';
  }
}

/** docs/product.md §4 Profile like: liked → count − 1 (never below 0) and unlike; else count + 1 and like. */
export function toggledProfileLike(s: { count: number; liked: boolean }): { count: number; liked: boolean } {
  return s.liked ? { count: Math.max(0, s.count - 1), liked: false } : { count: s.count + 1, liked: true };
}
