"use client";
import { useEffect, useEffectEvent, useRef, useState, type ComponentProps } from "react";

/** A Date → "2026-11-22T07:30", the value of <input type="datetime-local">, in the browser's zone. */
export function toLocalInput(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** "2026-11-22T07:30" read in the browser's zone → the UTC instant ("2026-11-22T12:30:00.000Z"); "" stays "". */
export function localInputToIso(value: string): string {
  if (!value) return "";
  const d = new Date(value); // a date-time form without an offset is local time (ECMAScript Date.parse)
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

/**
 * A datetime-local input in the viewer's time zone that submits a UTC instant: the visible input has no name; a
 * hidden input `name` carries the ISO instant, so plain GET forms (and shared URLs) stay zone-independent. `value` is
 * the current instant (ISO) or "". The server cannot know the zone, so the visible value is filled in after
 * hydration (it is uncontrolled: what someone typed before hydration is kept, not reset). The hidden instant is state:
 * React writes an input's `defaultValue` again on every render, and a hidden input's value is that attribute, so a
 * re-render (a live refresh) would otherwise put back the URL's instant over what was typed. The field shows `value`
 * again when `resetKey` changes (by default, the value itself): a value that moves on every render, like a preset
 * range's start, passes what the URL says instead, so a re-render keeps what was typed.
 */
export function LocalDateTimeInput({
  name,
  value,
  resetKey = value,
  ...props
}: { name: string; value: string; resetKey?: string } & Omit<ComponentProps<"input">, "name" | "value" | "defaultValue" | "type" | "onChange" | "ref">) {
  const visible = useRef<HTMLInputElement>(null);
  const mounted = useRef(false);
  const [instant, setInstant] = useState(value);
  const initial = value && !Number.isNaN(new Date(value).getTime()) ? toLocalInput(new Date(value)) : "";
  const show = useEffectEvent((el: HTMLInputElement) => {
    el.value = initial;
    setInstant(value);
  });
  useEffect(() => {
    const el = visible.current!;
    if (!mounted.current) {
      mounted.current = true;
      if (el.value) {
        setInstant(localInputToIso(el.value)); // typed before hydration
        return;
      }
    }
    show(el); // first show, or new values from the URL (a filter applied or cleared, another range)
  }, [resetKey]);
  return (
    <>
      <input {...props} ref={visible} type="datetime-local" onChange={(e) => setInstant(localInputToIso(e.target.value))} />
      <input type="hidden" name={name} value={instant} readOnly />
    </>
  );
}
