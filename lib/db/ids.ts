import { randomFillSync } from "node:crypto";
import { v7 } from "uuid";

// uuid's v7() asks crypto.getRandomValues for 16 bytes per id (~3 µs each here), a cost paid for every stored
// location, event and job. Its documented options take the random bytes, the milliseconds and the sequence, so the
// random bytes come from a pool refilled 4 KB at a time and the time and sequence from the state below, which
// follows uuid's own rule (RFC 9562 §6.2, method 1): a new millisecond starts at a random 31-bit sequence, the same
// or an earlier one counts it up (carrying into the millisecond when it wraps). Ids made by this process are
// therefore strictly increasing, even within a millisecond, as with v7() itself.

// The id's text is written into a reused buffer and read out as one string: uuid's own formatting joins twenty
// pieces and lower-cases the result (~700 bytes of short-lived strings and arrays per id, measured with V8's sampling
// heap profiler), and a 100-point batch makes a hundred ids.

const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;
const state = { msecs: -Infinity, seq: 0 };
/** This id's random bytes (copied out of the pool) and its 16 bytes as uuid's v7() lays them out. */
const random = new Uint8Array(16);
const bytes = new Uint8Array(16);
/** The text of an id: two lowercase hex digits per byte, with dashes at 8, 13, 18 and 23 (RFC 9562's layout). */
const text = Buffer.alloc(36, "-");
const DIGITS_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const HEX = Buffer.from(Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0")).join(""), "latin1");

function nextRandom(): Uint8Array {
  if (used + 16 > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  for (let k = 0; k < 16; k++) random[k] = pool[used + k]!;
  used += 16;
  return random;
}

/** Time-ordered UUID (v7): rows listed by creation stay in index order. */
export function newId(): string {
  const rnd = nextRandom();
  const now = Date.now();
  if (now > state.msecs) {
    state.msecs = now;
    state.seq = ((rnd[6]! & 0x7f) << 24) | (rnd[7]! << 16) | (rnd[8]! << 8) | rnd[9]!;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  v7({ random: rnd, msecs: state.msecs, seq: state.seq }, bytes);
  for (let i = 0; i < 16; i++) {
    const b = bytes[i]!;
    text[DIGITS_AT[i]!] = HEX[2 * b]!;
    text[DIGITS_AT[i]! + 1] = HEX[2 * b + 1]!;
  }
  return text.toString("latin1", 0, 36);
}
