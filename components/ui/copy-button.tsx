"use client";
import { useState } from "react";
import { Button } from "./index";

/** Copies `value` to the clipboard and says so for two seconds (announced to screen readers). */
export function CopyButton({ value, label = "Copy", size = "sm" }: { value: string; label?: string; size?: "sm" | "md" }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard API unavailable (insecure origin): fall back to a selection-based copy.
      const area = document.createElement("textarea");
      area.value = value;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }
  return (
    <Button variant="secondary" size={size} onClick={copy} aria-live="polite">
      {copied ? "Copied" : label}
    </Button>
  );
}
