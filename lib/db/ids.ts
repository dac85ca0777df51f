import { v7 } from "uuid";

/** Time-ordered UUID (v7): rows listed by creation stay in index order. */
export const newId = (): string => v7();
