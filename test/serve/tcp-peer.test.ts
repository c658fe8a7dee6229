/** The uid of a loopback client, read from /proc/net/tcp's text (the HTTP guard's peer key). */
import { describe, expect, it } from 'vitest';
import { parseTable } from '../../src/serve/tcp-peer.js';

// Server on 127.0.0.1:8787 (0x2253); two clients (ports 0xB295 and 0xC001) of uids 1000 and 65534;
// the server's own end of one connection; a connection to another port; the listener.
const TABLE = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:2253 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1087 1 0000000000000000 100 0 0 10 0
   1: 0100007F:B295 0100007F:2253 01 00000000:00000000 00:00000000 00000000  1000        0 2001 1 0000000000000000 20 4 30 10 -1
   2: 0100007F:2253 0100007F:B295 01 00000000:00000000 00:00000000 00000000  1000        0 2002 1 0000000000000000 20 4 30 10 -1
   3: 0100007F:C001 0100007F:2253 01 00000000:00000000 00:00000000 00000000 65534        0 2003 1 0000000000000000 20 4 30 10 -1
   4: 0100007F:D000 0100007F:1F90 01 00000000:00000000 00:00000000 00000000 65534        0 2004 1 0000000000000000 20 4 30 10 -1
`;

describe('parseTable', () => {
  it("keys each client of the server's port by client port and server port, with its owner's uid", () => {
    const t = parseTable(TABLE, 0x2253);
    expect(t.get(`${0xb295}:${0x2253}`)).toBe(1000);
    expect(t.get(`${0xc001}:${0x2253}`)).toBe(65534);
    // The server's own end and a connection to another port are not clients of ours.
    expect(t.get(`${0x2253}:${0xb295}`)).toBeUndefined();
    expect(t.get(`${0xd000}:${0x1f90}`)).toBeUndefined();
    expect(t.size).toBe(2);
  });
});
