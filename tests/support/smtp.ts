import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  envelope: { from: string; to: string[] };
  user: string | null;
  parsed: ParsedMail;
}

/**
 * A real SMTP server on 127.0.0.1 for a test: plain SMTP with AUTH PLAIN/LOGIN allowed without TLS, the messages
 * parsed back with mailparser. Recipients listed in `reject` are refused at RCPT TO (a 550).
 */
export async function startSmtpCapture(opts: { user?: string; pass?: string; reject?: string[] } = {}) {
  const mails: CapturedMail[] = [];
  let consumed = 0;
  const waiters: Array<(m: CapturedMail) => void> = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: !opts.user,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === opts.user && auth.password === opts.pass) callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      if (opts.reject?.includes(address.address)) {
        const err = new Error(`No such user: ${address.address}`) as Error & { responseCode: number };
        err.responseCode = 550;
        callback(err);
      } else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail: CapturedMail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            user: typeof session.user === "string" ? session.user : null,
            parsed,
          };
          mails.push(mail);
          waiters.shift()?.(mail);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  const credentials = opts.user ? `${encodeURIComponent(opts.user)}:${encodeURIComponent(opts.pass ?? "")}@` : "";
  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    mails,
    /** The next mail to arrive (or the oldest one not yet taken). */
    next(timeoutMs = 5_000): Promise<CapturedMail> {
      const taken = mails.length > consumed ? mails[consumed] : undefined;
      if (taken) {
        consumed++;
        return Promise.resolve(taken);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail within ${timeoutMs} ms`)), timeoutMs);
        waiters.push((m) => {
          clearTimeout(timer);
          consumed++;
          resolve(m);
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
