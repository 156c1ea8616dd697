/** A round avatar: the uploaded image, or the person's initials. */
export function UserAvatar({ name, url, size = 32 }: { name: string; url: string | null; size?: number }) {
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]?.toUpperCase())
      .join("") || "?";
  if (url) {
    return (
      <img
        src={url}
        alt=""
        width={size}
        height={size}
        className="shrink-0 rounded-full object-cover"
        style={{ width: size, height: size }}
      />
    );
  }
  return (
    <span
      aria-hidden
      className="grid shrink-0 place-items-center rounded-full bg-primary/15 text-xs font-semibold text-primary"
      style={{ width: size, height: size }}
    >
      {initials}
    </span>
  );
}
