import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { apiKeys, geofences, locations, trackables, webhookDeliveries, webhooks } from "@/lib/db/schema";

export type FirstStepId = "api-key" | "trackable" | "location" | "geofence" | "webhook" | "test";

export interface FirstStep {
  id: FirstStepId;
  title: string;
  /** One sentence on how, shown while the step is open. */
  how: string;
  /** Where the step is done. */
  href: string;
  done: boolean;
  /** A sentence about a try that did not work (a failed test delivery), with where to look. */
  problem?: { text: string; href: string };
}

const one = async (q: Promise<unknown[]>) => (await q).length > 0;

/**
 * The getting-started checklist of an account, read from what the account really holds: a key, a trackable, a
 * location (from the API or a connected app), a geofence, a webhook (an account endpoint or a geofence's), and a test
 * delivery that succeeded. The two webhook steps only on the enterprise plan (webhooks need it).
 */
export async function firstSteps({ ctx }: { ctx: Ctx }): Promise<FirstStep[]> {
  const db = exec(ctx);
  const account = ctx.account.id;
  const enterprise = ctx.account.plan === "enterprise";
  const [key, firstTrackable, located, fence, endpoint, fenceHook, test] = await Promise.all([
    one(db.select({ x: sql`1` }).from(apiKeys).where(eq(apiKeys.accountId, account)).limit(1)),
    db.select({ id: trackables.id }).from(trackables).where(eq(trackables.accountId, account)).orderBy(trackables.id).limit(1),
    one(
      db
        .select({ x: sql`1` })
        .from(locations)
        .innerJoin(trackables, eq(trackables.id, locations.trackableId))
        .where(eq(trackables.accountId, account))
        .limit(1),
    ),
    one(db.select({ x: sql`1` }).from(geofences).where(eq(geofences.accountId, account)).limit(1)),
    db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.accountId, account)).orderBy(webhooks.id).limit(1),
    one(
      db
        .select({ x: sql`1` })
        .from(geofences)
        .where(and(eq(geofences.accountId, account), eq(geofences.notificationType, "webhook"), isNotNull(geofences.webhookUrl)))
        .limit(1),
    ),
    // The newest test delivery that succeeded, else the newest test at all (to point at what went wrong).
    enterprise
      ? db
          .select({ id: webhookDeliveries.id, status: webhookDeliveries.status })
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.accountId, account), eq(webhookDeliveries.test, true)))
          .orderBy(sql`${webhookDeliveries.status} = 'succeeded' desc`, desc(webhookDeliveries.id))
          .limit(1)
      : Promise.resolve([]),
  ]);
  const trackableId = firstTrackable[0]?.id;
  const endpointId = endpoint[0]?.id;
  const lastTest = test[0];

  const steps: FirstStep[] = [
    {
      id: "api-key",
      title: "Create an API key",
      how: "Your backend and scripts use it to call the API.",
      href: "/api-keys",
      done: key,
    },
    {
      id: "trackable",
      title: "Add a trackable",
      how: "A phone, a vehicle, a person or a parcel: anything that reports its position.",
      href: "/trackables",
      done: trackableId !== undefined,
    },
    {
      id: "location",
      title: "Connect a device or post a location",
      how: "Set up a tracking app, or send one position with curl from the trackable's page.",
      href: trackableId ? `/trackables/${trackableId}` : "/trackables",
      done: located,
    },
    {
      id: "geofence",
      title: "Draw a geofence",
      how: "A circle or a polygon on the map: entering and leaving it become events.",
      href: "/geofences?new=1",
      done: fence,
    },
  ];
  if (enterprise) {
    steps.push(
      {
        id: "webhook",
        title: "Add a webhook",
        how: "An endpoint on your server that receives the events, signed.",
        href: "/webhooks/new",
        done: endpointId !== undefined || fenceHook,
      },
      {
        id: "test",
        title: "Send a test",
        how: "Send a sample event to your endpoint and see its answer.",
        href: endpointId ? `/webhooks/${endpointId}` : "/webhooks",
        done: lastTest?.status === "succeeded",
        problem:
          lastTest && lastTest.status === "failed"
            ? { text: "Your last test did not reach the endpoint: see what it answered.", href: `/deliveries/${lastTest.id}` }
            : undefined,
      },
    );
  }
  return steps;
}
