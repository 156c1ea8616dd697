import { formatPrice } from "#common/format.ts";
import type { CatalogItem, SiteData } from "../types";
import { ChartIcon, FileIcon, LiveIcon, VideoIcon } from "./icons";
import { formatTime } from "#common/time.ts";
import { NOT_ON_SALE } from "#common/validation/merchant-account.ts";

const SECTIONS = [
  { key: "live", title: "Live Classes", anchor: "live", Icon: LiveIcon, empty: "New live classes are announced here." },
  { key: "courses", title: "Courses", anchor: "courses", Icon: VideoIcon, empty: "Video courses are coming soon." },
  {
    key: "materials",
    title: "Study Materials",
    anchor: "materials",
    Icon: FileIcon,
    empty: "Study materials are coming soon.",
  },
] as const;

/** Prices as the rest of the product writes them ("Free", "₹1,499"). */
const priceLabel = formatPrice;

function when(item: CatalogItem): string | null {
  if (!item.startsAt) return null;
  return formatTime(item.startsAt);
}

/** The institute's live classes, courses and materials, each linking to enrolment in its catalog. */
export function CatalogBlocks({ catalog, headingLevel = 3 }: { catalog: SiteData["catalog"]; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? "h2" : "h3";
  const total = catalog.live.length + catalog.courses.length + catalog.materials.length;
  if (total === 0 && catalog.tests.length === 0)
    return <p className="ps-muted">Our classes and study materials will appear here soon.</p>;
  return (
    <>
      <div className="ps-catalog">
        {SECTIONS.map(({ key, title, anchor, Icon, empty }) => {
          const items = catalog[key];
          return (
            <div key={key} className="ps-catalog-col">
              <H className="ps-catalog-title">
                <Icon className="ps-icon" /> {title}
              </H>
              {items.length === 0 ? (
                <p className="ps-muted">{empty}</p>
              ) : (
                <ul className="ps-catalog-list">
                  {items.slice(0, 4).map((item) => (
                    <li key={item.id} className="ps-catalog-item">
                      <span className="ps-catalog-name">{item.title}</span>
                      {when(item) && <span className="ps-catalog-meta">{when(item)}</span>}
                      <span className="ps-catalog-foot">
                        <span className="ps-price">{priceLabel(item.price)}</span>
                        <a className="ps-link" href={`/catalog#content-${item.id}`}>
                          Enrol
                        </a>
                      </span>
                    </li>
                  ))}
                </ul>
              )}
              <a className="ps-link" href={`/catalog#${anchor}`}>
                See all {title.toLowerCase()}
              </a>
            </div>
          );
        })}
      </div>
      <MockTests items={catalog.tests} H={H} />
    </>
  );
}

/**
 * The lead magnet's way in: a visitor is new to the institute, so it opens on Register (a student
 * who is signed in goes straight on to the test; one with an account switches to Sign in there).
 */
export function freeTestHref(id: string): string {
  return `/auth?role=student&mode=register&redirectTo=${encodeURIComponent(`/student/mock-tests/${id}`)}`;
}

/**
 * The institute's mock tests and test series with their prices. A free test is the site's lead
 * magnet (taking it asks a visitor to sign up as the institute's student first); a paid test or a
 * series is bought on the catalog, where 'Buy' opens Checkout (signing up on the way). A test whose
 * window has passed is shown closed, never offered. The page is the same for every visitor, so what
 * one student has used up is shown where they land: the catalog and the test's own page.
 */
function MockTests({ items, H }: { items: CatalogItem[]; H: "h2" | "h3" }) {
  if (items.length === 0) return null;
  return (
    <div className="ps-catalog-col ps-tests" id="mock-tests">
      <H className="ps-catalog-title">
        <ChartIcon className="ps-icon" /> Mock Tests
      </H>
      <ul className="ps-catalog-list ps-tests-list">
        {items.slice(0, 6).map((item) => (
          <li key={item.id} className="ps-catalog-item" data-test-offer={item.id}>
            <span className="ps-catalog-name">{item.title}</span>
            <span className="ps-catalog-meta">{testMeta(item)}</span>
            <span className="ps-catalog-foot">
              <span className="ps-price">{priceLabel(item.price)}</span>
              <TestOffer item={item} />
            </span>
          </li>
        ))}
      </ul>
      <a className="ps-link" href="/catalog#mock-tests">
        See all mock tests
      </a>
    </div>
  );
}

function testMeta(item: CatalogItem): string {
  if (item.type === "series") return `Test series · ${item.testCount} ${item.testCount === 1 ? "test" : "tests"}`;
  if (item.opensAt) return `Mock test · Opens ${formatTime(item.opensAt)}`;
  return "Mock test";
}

function TestOffer({ item }: { item: CatalogItem }) {
  if (item.closed) return <span className="ps-state">Closed</span>;
  if (item.onSale === false) return <span className="ps-state">{NOT_ON_SALE}</span>;
  if (item.type === "test" && item.price === 0)
    return (
      <a className="ps-link" href={freeTestHref(item.id)}>
        Take the free test
      </a>
    );
  return (
    <a className="ps-link" href={`/catalog?buy=${item.id}#content-${item.id}`}>
      Buy
    </a>
  );
}
