// The config fields of each channel type, as the forms ask for them (lib/notifications/channels holds the schemas).
export interface ChannelField {
  key: string;
  label: string;
  hint?: string;
  /** Write-only: left empty on edit keeps the stored value. */
  secret?: boolean;
  /** A comma-separated list (e-mail addresses). */
  list?: boolean;
  optional?: boolean;
}

export const CHANNEL_FIELDS: Record<string, { label: string; fields: ChannelField[] }> = {
  ntfy: {
    label: "ntfy",
    fields: [
      { key: "serverUrl", label: "Server URL", hint: "Default https://ntfy.sh", optional: true },
      { key: "topic", label: "Topic", hint: "The topic your phone subscribes to: pick a long random name on ntfy.sh" },
      { key: "token", label: "Access token", hint: "Only for a protected topic (tk_…)", secret: true, optional: true },
    ],
  },
  gotify: {
    label: "Gotify",
    fields: [
      { key: "serverUrl", label: "Server URL" },
      { key: "appToken", label: "Application token", secret: true },
    ],
  },
  telegram: {
    label: "Telegram",
    fields: [
      { key: "botToken", label: "Bot token", hint: "From @BotFather", secret: true },
      { key: "chatId", label: "Chat id" },
    ],
  },
  discord: { label: "Discord", fields: [{ key: "webhookUrl", label: "Webhook URL", secret: true }] },
  slack: { label: "Slack", fields: [{ key: "webhookUrl", label: "Webhook URL", secret: true }] },
  email: { label: "E-mail", fields: [{ key: "to", label: "Addresses", hint: "Separated by commas", list: true }] },
};

/** The config a form's values make: blanks left out (a secret keeps its stored value), lists split. */
export function configOf(type: string, values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of CHANNEL_FIELDS[type]?.fields ?? []) {
    const v = (values[f.key] ?? "").trim();
    if (v === "") continue;
    out[f.key] = f.list ? v.split(",").map((s) => s.trim()).filter(Boolean) : v;
  }
  return out;
}
