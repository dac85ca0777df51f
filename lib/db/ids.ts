import { randomFillSync } from "node:crypto";
import { v7 } from "uuid";

// uuid's v7() asks crypto.getRandomValues for 16 bytes per id (~3 µs each here), a cost paid for every stored
// location, event and job. Its documented options take the random bytes, the milliseconds and the sequence, so the
// random bytes come from a pool refilled 4 KB at a time and the time and sequence from the state below, which
// follows uuid's own rule (RFC 9562 §6.2, method 1): a new millisecond starts at a random 31-bit sequence, the same
// or an earlier one counts it up (carrying into the millisecond when it wraps). Ids made by this process are
// therefore strictly increasing, even within a millisecond, as with v7() itself.

const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;
const state = { msecs: -Infinity, seq: 0 };

function randomBytes16(): Uint8Array {
  if (used + 16 > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, used + 16);
  used += 16;
  return bytes;
}

/** Time-ordered UUID (v7): rows listed by creation stay in index order. */
export function newId(): string {
  const random = randomBytes16();
  const now = Date.now();
  if (now > state.msecs) {
    state.msecs = now;
    state.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
}
