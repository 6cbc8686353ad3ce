import { describe, expect, it } from 'vitest';
import { connectAction, connectLabel, connectReducer, type ConnectEvent, type ConnectState } from './connectState';

const run = (s: ConnectState, ...events: ConnectEvent[]) => events.reduce(connectReducer, s);
const loaded = (isFriend: boolean, requestSent: boolean, requestReceived = false): ConnectEvent => ({
  type: 'loaded',
  isFriend,
  requestSent,
  requestReceived,
});

describe('Connect button state machine (docs/product.md §4)', () => {
  it('Connect → Sending... → Request Sent', () => {
    let s = run('connect', loaded(false, false));
    expect(connectLabel(s)).toBe('Connect');
    expect(connectAction(s)).toBe('send');
    s = connectReducer(s, { type: 'sendStart' });
    expect(connectLabel(s)).toBe('Sending...');
    expect(connectAction(s)).toBeNull();
    s = connectReducer(s, { type: 'sendDone', accepted: false });
    expect(connectLabel(s)).toBe('Request Sent');
  });

  it("reads 'Connected' when the answer says they are friends now", () => {
    expect(run('connect', { type: 'sendStart' }, { type: 'sendDone', accepted: true })).toBe('connected');
  });

  it('an already sent request does nothing more', () => {
    expect(connectAction('sent')).toBeNull();
    expect(run('sent', { type: 'sendStart' })).toBe('sent');
  });

  it('a failed send goes back to Connect', () => {
    expect(run('connect', { type: 'sendStart' }, { type: 'sendFailed' })).toBe('connect');
  });

  it("on load a sent request marks 'sent'; being a friend clears it", () => {
    expect(run('connect', loaded(false, true))).toBe('sent');
    expect(run('sent', loaded(true, true))).toBe('connected');
    expect(run('connected', loaded(false, false))).toBe('connect');
  });

  it("the friend action unfriends: 'Removing...', then Connect (or back on failure)", () => {
    expect(connectAction('connected')).toBe('unfriend');
    const removing = run('connected', { type: 'removeStart' });
    expect(connectLabel(removing)).toBe('Removing...');
    expect(connectReducer(removing, { type: 'removeDone' })).toBe('connect');
    expect(connectReducer(removing, { type: 'removeFailed' })).toBe('connected');
  });

  it('a request from them can be accepted', () => {
    const s = run('connect', loaded(false, false, true));
    expect(connectLabel(s)).toBe('Accept Request');
    expect(connectAction(s)).toBe('accept');
    expect(run(s, { type: 'acceptStart' }, { type: 'acceptDone' })).toBe('connected');
    expect(run(s, { type: 'acceptStart' }, { type: 'acceptFailed' })).toBe('received');
  });

  it('a check arriving while a call is in flight does not override it', () => {
    expect(run('sending', loaded(false, false))).toBe('sending');
    expect(run('removing', loaded(true, false))).toBe('removing');
  });
});
