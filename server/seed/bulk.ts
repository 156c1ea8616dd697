import { sql } from "drizzle-orm";
import type { Db } from "../db/types.ts";

export interface BulkSizes {
  centers: number;
  students: number;
  creators: number;
  contents: number;
  enrollments: number;
  paidOrders: number;
  enquiries: number;
  bookings: number;
  sessions: number;
  rateLimitHits: number;
}

export const LOAD_TEST_SIZES: BulkSizes = {
  centers: 1000,
  students: 50_000,
  creators: 500,
  contents: 5000,
  enrollments: 60_000,
  paidOrders: 30_000,
  enquiries: 30_000,
  bookings: 5000,
  sessions: 20_000,
  rateLimitHits: 20_000,
};

/**
 * A large, realistic database for load tests and query-plan checks, written with set-based SQL
 * (seconds, not minutes). Accounts are `student{n}@bulk.example`, `creator{n}@bulk.example`,
 * `owner{n}@bulk.example`; institutes `bulk-{n}` on `bulk-{n}.test`. `passwordHash` is given to
 * every bulk account so a load test can sign in.
 */
export async function seedBulk(db: Db, sizes: BulkSizes = LOAD_TEST_SIZES, passwordHash = "x"): Promise<void> {
  const s = sizes;
  await db.execute(sql`insert into users (name, email, password_hash, role, created_at)
    select 'Student ' || g, 'student' || g || '@bulk.example', ${passwordHash}, 'student', now() - (g || ' minutes')::interval from generate_series(1, ${s.students}::int) g`);
  await db.execute(
    sql`insert into users (name, email, password_hash, role) select 'Creator ' || g, 'creator' || g || '@bulk.example', ${passwordHash}, 'creator' from generate_series(1, ${s.creators}::int) g`,
  );
  await db.execute(
    sql`insert into users (name, email, password_hash, role, created_at) select 'Owner ' || g, 'owner' || g || '@bulk.example', ${passwordHash}, 'business', now() - (g || ' hours')::interval from generate_series(1, ${s.centers}::int) g`,
  );
  await db.execute(sql`insert into centers (slug, institute_name, custom_domain, owner_id, plan_name, billing, expires_at, template_id, created_at)
    select 'bulk-' || g, 'Bulk Institute ' || g, 'bulk-' || g || '.test', u.id, '1 Year Plan', 'yearly', now() + interval '300 days', 't' || (1 + g % 4), now() - (g || ' hours')::interval
    from generate_series(1, ${s.centers}::int) g join (select id, row_number() over (order by email) rn from users where email like 'owner%@bulk.example') u on u.rn = g`);
  await db.execute(sql`insert into contents (creator_id, center_id, type, title, description, price, live_link, created_at)
    select c.id, ce.id, (array['live','video','pdf'])[1 + g % 3]::content_type, 'Bulk content ' || g, 'A lesson for JEE, NEET and Boards.', (g % 5) * 9900, 'https://meet.example.com/' || g, now() - (g || ' minutes')::interval
    from generate_series(1, ${s.contents}::int) g
    join (select id, row_number() over (order by email) rn from users where email like 'creator%@bulk.example') c on c.rn = 1 + g % ${s.creators}::int
    join (select id, row_number() over (order by slug) rn from centers where slug like 'bulk-%') ce on ce.rn = 1 + g % ${s.centers}::int`);
  // Each creator is on the team of every institute they sell through (so the sites show their content).
  await db.execute(sql`insert into memberships (center_id, email, invited_by_id, user_id, role, status, accepted_at)
    select distinct on (c.center_id, c.creator_id) c.center_id, u.email, ce.owner_id, c.creator_id, 'creator', 'active', now()
    from contents c join users u on u.id = c.creator_id join centers ce on ce.id = c.center_id where c.title like 'Bulk content%'`);
  await db.execute(sql`insert into enrollments (student_id, content_id)
    select st.id, c.id from generate_series(1, ${s.enrollments}::int) g
    join (select id, row_number() over (order by email) rn from users where email like 'student%@bulk.example') st on st.rn = 1 + g % ${s.students}::int
    join (select id, row_number() over (order by title) rn from contents where title like 'Bulk content%') c on c.rn = 1 + (g * 7) % ${s.contents}::int
    on conflict do nothing`);
  await db.execute(sql`insert into orders (subject, content_id, buyer_id, creator_id, seller_center_id, amount, gateway_order_id, status, paid_at)
    select 'content', e.content_id, e.student_id, c.creator_id, c.center_id, 9900, 'order_bulk_' || row_number() over (), 'paid', now() - (row_number() over () || ' minutes')::interval
    from (select * from enrollments limit ${s.paidOrders}::int) e join contents c on c.id = e.content_id`);
  await db.execute(sql`insert into enquiries (center_id, name, phone, email, created_at)
    select ce.id, 'Lead ' || g, '+9198' || lpad(g::text, 8, '0'), 'lead' || g || '@bulk.example', now() - (g || ' minutes')::interval
    from generate_series(1, ${s.enquiries}::int) g join (select id, row_number() over (order by slug) rn from centers where slug like 'bulk-%') ce on ce.rn = 1 + g % ${s.centers}::int`);
  await db.execute(sql`with placed as (
      insert into orders (subject, buyer_id, amount, gateway_order_id, status, paid_at, created_at)
      select 'plan', c.owner_id, 5000000, 'order_p_' || c.slug, 'paid', c.created_at, c.created_at from centers c where c.slug like 'bulk-%'
      returning id, gateway_order_id)
    insert into plan_orders (order_id, center_id, plan_name, billing, duration_days, institute_name, owner_name, email, domain)
    select placed.id, c.id, '1 Year Plan', 'yearly', 365, c.institute_name, 'Owner', 'o@bulk.example', c.custom_domain
    from placed join centers c on 'order_p_' || c.slug = placed.gateway_order_id`);
  await db.execute(
    sql`insert into template_selections (center_id, template_id, created_at) select id, template_id, created_at from centers where slug like 'bulk-%'`,
  );
  await db.execute(sql`insert into seminar_bookings (full_name, email, phone_number, city, country, date, time)
    select 'Investor ' || g, 'inv' || g || '@bulk.example', '+919800000000', 'Kolkata', 'India', (current_date + (g % 60))::date, '10:00 AM' from generate_series(1, ${s.bookings}::int) g`);
  await db.execute(sql`insert into sessions (id, user_id, kind, host, expires_at, absolute_expires_at)
    select md5('bulk-session-' || g), u.id, 'web', 'localhost', now() + interval '1 day', now() + interval '7 days'
    from generate_series(1, ${s.sessions}::int) g join (select id, row_number() over (order by email) rn from users where email like 'student%@bulk.example') u on u.rn = 1 + g % ${s.students}::int`);
  await db.execute(
    sql`insert into rate_limit_hits (bucket, created_at) select 'login:ip:10.0.' || (g % 250) || '.' || (g % 199), now() - (g || ' seconds')::interval from generate_series(1, ${s.rateLimitHits}::int) g`,
  );
}
