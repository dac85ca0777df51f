// The user the setup project signs up; unique per run so a reused server never sees the address twice.
export const USER = {
  name: "Ada Lovelace",
  email: `ada+${Date.now().toString(36)}@example.com`,
  password: "correct horse battery staple",
};
