"use client";
import { Field, inputClass } from "@/components/ui";
import type { Aria } from "./geofence-form";

/** A labelled number input of the form: whole numbers get a numeric keypad, others (step "any") a decimal one. */
export function NumberField(props: {
  id: string;
  label: string;
  hint?: string;
  error: string | null;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  min?: number;
  max?: number;
  step: number | "any";
  placeholder?: string;
  aria: ReturnType<Aria>;
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} error={props.error}>
      <input
        id={props.id}
        type="number"
        min={props.min}
        max={props.max}
        step={props.step}
        inputMode={props.step === 1 ? "numeric" : "decimal"}
        placeholder={props.placeholder}
        className={inputClass}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        onBlur={props.onBlur}
        {...props.aria}
      />
    </Field>
  );
}
