// What motion keeps per trackable between rounds (trackable_states.motion_state): where segmentation and the
// speed-episode rule stand, so a round takes in only the fixes after that point.
import type { OpenSegment } from "./segment";
import type { SpeedState } from "./speed";

export interface MotionState {
  /** Epoch ms: every usable fix before this time is taken in; a round whose new fixes are all at or after it resumes. */
  at: number;
  /** The settings and accuracy limit it was computed with (JSON): under other ones the round recomputes instead. */
  basis: string;
  open: OpenSegment;
  speed: SpeedState;
}
