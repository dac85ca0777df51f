/** Whole seconds between two instants (never negative). */
export const wholeSeconds = (from: Date, to: Date): number => Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));
