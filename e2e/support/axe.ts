import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import axe from "axe-core";

const WCAG21AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const SAMPLE = "data-contrast-sample";
// axe-core as usual, but its color-contrast rule looks only at the elements markContrastSamples marked.
const CONTRAST_ON_SAMPLES = `${axe.source};axe.configure({ rules: [{ id: "color-contrast", selector: "[${SAMPLE}]" }] });`;

/**
 * The page's serious and critical WCAG 2.1 A/AA violations, one message each with its nodes. With `contrastByStyle`,
 * every rule but color-contrast still runs over the whole page, and color-contrast over one text element of each
 * distinct look (markContrastSamples): on a long generated page (the API reference) it is most of axe's time.
 */
export async function seriousViolations(page: Page, { contrastByStyle = false } = {}): Promise<string[]> {
  // Next.js streams a dynamic page's metadata after its content for browsers (not for bots): the <title> can land a
  // moment after the page shows, and axe's document-title rule must see the page as a visitor ends up with it.
  await expect(page, "the page's <title>").toHaveTitle(/\S/);
  if (contrastByStyle) await page.evaluate(markContrastSamples, SAMPLE);
  const results = await new AxeBuilder({ page, ...(contrastByStyle ? { axeSource: CONTRAST_ON_SAMPLES } : {}) })
    .withTags(WCAG21AA)
    .analyze();
  if (contrastByStyle) await page.evaluate((attr) => document.querySelectorAll(`[${attr}]`).forEach((el) => el.removeAttribute(attr)), SAMPLE);
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1, 3).join(" ")}`).join("\n")}`);
}

/**
 * Marks the first element of each distinct look among the form fields and the elements with text of their own. The
 * look holds everything axe's color-contrast reads besides the text itself: the element's text style and state (a
 * disabled or inert one is exempt), the backgrounds, opacity, filters and clipping of its ancestors, and the positioned
 * elements lying over it; so every element shares its verdict with a marked one. Runs in the page; returns the count.
 */
function markContrastSamples(attr: string): number {
  const chainOf = new Map<Element, string>();
  const chain = (el: Element | null): string => {
    if (!el) return "";
    let key = chainOf.get(el);
    if (key === undefined) {
      const s = getComputedStyle(el);
      const pseudo = ["::before", "::after"].map((p) => getComputedStyle(el, p)).map((b) => `${b.content}/${b.backgroundColor}/${b.backgroundImage}`);
      key = `${chain(el.parentElement)}>${el.tagName}[${[s.backgroundColor, s.backgroundImage, s.opacity, s.filter, s.mixBlendMode, s.visibility, s.overflow, s.clip, s.clipPath, ...pseudo].join(";")}]`;
      chainOf.set(el, key);
    }
    return key;
  };
  const all = [...document.querySelectorAll("body *")];
  const positioned = all.filter((el) => ["absolute", "fixed", "sticky"].includes(getComputedStyle(el).position)).map((el) => ({ el, r: el.getBoundingClientRect() }));
  const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const labelling = new Set([...document.querySelectorAll("[aria-labelledby]")].flatMap((el) => el.getAttribute("aria-labelledby")!.split(/\s+/)));
  const labels = (el: Element) => {
    for (let a: Element | null = el; a; a = a.parentElement) if (a.id && labelling.has(a.id)) return true;
    return false;
  };
  const seen = new Set<string>();
  let marked = 0;
  for (const el of all) {
    const field = el.matches("input, select, textarea");
    if (!field && ![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim())) continue;
    const s = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    const over = positioned.filter(({ el: p, r }) => overlaps(r, rect) && !p.contains(el) && !el.contains(p)).map(({ el: p }) => chain(p));
    const clips: boolean[] = [];
    for (let a = el.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflow !== "visible") clips.push(overlaps(a.getBoundingClientRect(), rect));
    const state = [el.matches(":disabled"), !!el.closest("[inert], [aria-disabled='true'], label"), labels(el), field && (el as HTMLInputElement).type];
    const look = [chain(el), s.color, s.fontSize, s.fontWeight, s.textShadow, s.textIndent, rect.width > 0 && rect.height > 0, ...state, clips.join(), ...over].join("|");
    if (seen.has(look)) continue;
    seen.add(look);
    el.setAttribute(attr, "");
    marked += 1;
  }
  return marked;
}
