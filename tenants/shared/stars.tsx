import { StarIcon } from "./icons";

export function Stars() {
  return (
    <span className="ps-stars" role="img" aria-label="5 out of 5 stars">
      {[0, 1, 2, 3, 4].map((i) => (
        <StarIcon key={i} className="ps-icon" />
      ))}
    </span>
  );
}
