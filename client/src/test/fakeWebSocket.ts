/** A controllable WebSocket: instances are recorded; tests open, push frames and close. */
export class FakeWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  readonly url: string;
  readyState = 0;
  sent: string[] = [];
  closedWith: { code?: number; reason?: string } | null = null;
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;

  constructor(url: string) {
    this.url = url;
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number, reason?: string) {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  // --- test controls ---
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(event: string, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ event, data }) } as MessageEvent);
  }
  receiveRaw(text: string) {
    this.onmessage?.({ data: text } as MessageEvent);
  }
  serverClose(code: number, reason = '') {
    this.readyState = 3;
    this.onclose?.({ code, reason, wasClean: true } as CloseEvent);
  }
  frames(): Array<{ event: string; data: unknown }> {
    return this.sent.map((s) => JSON.parse(s) as { event: string; data: unknown });
  }
  /** The frames after the first, which must be the socket's `auth` (the token never goes in the URL). */
  framesAfterAuth(): Array<{ event: string; data: unknown }> {
    const [first, ...rest] = this.frames();
    if (first?.event !== 'auth') throw new Error(`first frame is ${first ? first.event : 'missing'}, not auth`);
    return rest;
  }

  static reset() {
    FakeWebSocket.instances = [];
  }
  static last(): FakeWebSocket {
    const ws = FakeWebSocket.instances[FakeWebSocket.instances.length - 1];
    if (!ws) throw new Error('no socket created');
    return ws;
  }
}
