import { timestamp, uuid } from "drizzle-orm/pg-core";
import { newId } from "../ids";

// Timestamps are stored with millisecond precision: the API speaks milliseconds, and cursors compare them exactly.
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
export const id = () => uuid("id").primaryKey().$defaultFn(newId);
export const createdAt = () => ts("created_at").notNull().defaultNow();
export const updatedAt = () => ts("updated_at").notNull().defaultNow();
