import Link from "next/link";
import { redirect } from "next/navigation";
import { Logo } from "@/components/brand";
import { buttonClass } from "@/components/ui";
import { getSession } from "@/lib/auth/session";

export default async function Home() {
  if (await getSession()) redirect("/trackables");
  return (
    <main id="main" tabIndex={-1} className="focus:outline-none mx-auto max-w-3xl px-6 py-16">
      <Logo />
      <h1 className="mt-10 text-4xl font-semibold tracking-tight text-slate-900">Know where your fleet is, and when it moves.</h1>
      <p className="mt-4 text-lg text-slate-600">
        Devices report positions over a REST API; you draw geofences on a map; Fenceline sends your server a signed webhook,
        retried until it lands, whenever a device enters or leaves one.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link className={buttonClass("primary")} href="/sign-up">
          Create an account
        </Link>
        <Link className={buttonClass("secondary")} href="/sign-in">
          Sign in
        </Link>
        <Link className={buttonClass("ghost")} href="/docs/api">
          API reference
        </Link>
      </div>
    </main>
  );
}
