import { useState } from "react";
import { Popover } from "radix-ui";
import { DayPicker } from "react-day-picker";
import "react-day-picker/style.css";
import { toast } from "~/lib/toast";
import { CalendarDays } from "lucide-react";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input, inputClasses, Select } from "~/components/ui/input";
import { cn } from "~/lib/cn";
import { failureDescription, SEMINAR_TEXT } from "~/lib/seminar-messages";
import { firstBookableDate, isSeminarEmail, seminarToday, TIME_SLOTS } from "#common/validation/seminar.ts";
import { isPhoneNumber } from "#common/validation/phone.ts";

const VALIDATION_MS = 3000;
const ERROR_MS = 4000;
const SUCCESS_MS = 5000;

const EMPTY = { fullName: "", email: "", phoneNumber: "", city: "", country: "", date: "", time: "" };
type Values = typeof EMPTY;

/** yyyy-mm-dd ⇄ the calendar's local dates (the calendar shows days, not instants). */
function toLocalDate(value: string): Date {
  const [y, m, d] = value.split("-").map(Number);
  return new Date(y, m - 1, d);
}
function fromLocalDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}
const longDate = new Intl.DateTimeFormat("en-IN", { weekday: "short", day: "numeric", month: "long", year: "numeric" });

async function submitBooking(values: Values): Promise<void> {
  const response = await fetch("/api/book", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(values),
  });
  const body = (await response.json().catch(() => null)) as {
    success?: boolean;
    message?: string;
    error?: string;
  } | null;
  if (!response.ok) throw new Error(body?.message || body?.error || "Failed to submit booking");
  if (!body?.success) throw new Error(body?.message || "Registration failed");
}

/**
 * 'Register for Investment Seminar': seven fields, checked here first (toasts of §5) and again
 * by POST /api/book. A failure keeps the dialog open with everything typed; success closes and
 * clears it.
 */
export default function SeminarDialog({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened the dialog (it has no Radix trigger): focus goes back there on close. */
  returnFocusTo?: HTMLElement | null;
}) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [submitting, setSubmitting] = useState(false);
  const [calendarOpen, setCalendarOpen] = useState(false);
  const minDate = toLocalDate(firstBookableDate(seminarToday()));
  const selected = values.date ? toLocalDate(values.date) : undefined;
  const set = (key: keyof Values) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setValues((v) => ({ ...v, [key]: event.target.value }));

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const trimmed = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])) as Values;
    if (Object.values(trimmed).some((v) => !v)) {
      toast.error(SEMINAR_TEXT.validation.title, {
        description: SEMINAR_TEXT.validation.description,
        duration: VALIDATION_MS,
      });
      return;
    }
    if (!isSeminarEmail(trimmed.email)) {
      toast.error(SEMINAR_TEXT.email.title, { description: SEMINAR_TEXT.email.description, duration: VALIDATION_MS });
      return;
    }
    if (!isPhoneNumber(trimmed.phoneNumber)) {
      toast.error(SEMINAR_TEXT.phone.title, { description: SEMINAR_TEXT.phone.description, duration: VALIDATION_MS });
      return;
    }
    setSubmitting(true);
    try {
      await submitBooking({ ...trimmed, email: trimmed.email.toLowerCase() });
      toast.success(SEMINAR_TEXT.success.title, {
        description: SEMINAR_TEXT.success.description,
        duration: SUCCESS_MS,
      });
      setValues(EMPTY);
      onOpenChange(false);
    } catch (error) {
      toast.error(SEMINAR_TEXT.failed, { description: failureDescription(error), duration: ERROR_MS });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !submitting && onOpenChange(next)}>
      <DialogContent
        title={SEMINAR_TEXT.title}
        description={SEMINAR_TEXT.subtitle}
        className="max-w-xl"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo?.focus();
        }}
      >
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <Field label="Full Name">
            <Input
              name="fullName"
              autoComplete="name"
              required
              value={values.fullName}
              onChange={set("fullName")}
              placeholder="Your full name"
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Email">
              <Input
                name="email"
                type="email"
                autoComplete="email"
                required
                value={values.email}
                onChange={set("email")}
                placeholder="you@example.com"
              />
            </Field>
            <Field label="Phone Number">
              <Input
                name="phoneNumber"
                type="tel"
                autoComplete="tel"
                required
                value={values.phoneNumber}
                onChange={set("phoneNumber")}
                placeholder="+91 98765 43210"
              />
            </Field>
            <Field label="City">
              <Input
                name="city"
                autoComplete="address-level2"
                required
                value={values.city}
                onChange={set("city")}
                placeholder="Kolkata"
              />
            </Field>
            <Field label="Country">
              <Input
                name="country"
                autoComplete="country-name"
                required
                value={values.country}
                onChange={set("country")}
                placeholder="India"
              />
            </Field>
            <Popover.Root open={calendarOpen} onOpenChange={setCalendarOpen}>
              <Field label="Select Date">
                <Popover.Trigger asChild>
                  <button
                    type="button"
                    aria-haspopup="dialog"
                    className={cn(
                      inputClasses,
                      "items-center justify-between text-left",
                      !selected && "text-muted-foreground",
                    )}
                  >
                    {selected ? longDate.format(selected) : "Pick a date"}
                    <CalendarDays className="size-4 shrink-0 opacity-70" aria-hidden />
                  </button>
                </Popover.Trigger>
              </Field>
              <Popover.Portal>
                <Popover.Content
                  align="start"
                  sideOffset={6}
                  aria-label="Choose a seminar date"
                  className="seminar-calendar z-[60] rounded-xl border bg-card p-3 text-card-foreground shadow-xl"
                >
                  <DayPicker
                    mode="single"
                    selected={selected}
                    onSelect={(date) => {
                      setValues((v) => ({ ...v, date: date ? fromLocalDate(date) : "" }));
                      if (date) setCalendarOpen(false);
                    }}
                    disabled={{ before: minDate }}
                    startMonth={minDate}
                    defaultMonth={selected ?? minDate}
                    autoFocus
                  />
                </Popover.Content>
              </Popover.Portal>
            </Popover.Root>
            <Field label="Select Time">
              <Select
                name="time"
                required
                value={values.time}
                onChange={set("time")}
                className={cn(!values.time && "text-muted-foreground")}
              >
                <option value="">Choose a time</option>
                {TIME_SLOTS.map((slot) => (
                  <option key={slot} value={slot} className="text-foreground">
                    {slot}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <p className="text-xs text-muted-foreground">
            Times are Indian Standard Time (IST). All fields are required.
          </p>
          <Button type="submit" size="lg" disabled={submitting} className="mt-1 w-full">
            {submitting ? "Registering..." : "Confirm Registration"}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
