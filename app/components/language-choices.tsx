/**
 * The languages a setting offers, as radio buttons: each language is named in itself, and marked
 * with its `lang` so that a screen reader reads हिन्दी as Hindi.
 */
export function LanguageChoices<V extends string>({
  name,
  legend,
  choices,
  defaultValue,
}: {
  name: string;
  legend: string;
  choices: { value: V; label: string }[];
  defaultValue: V;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="sr-only">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {choices.map((choice) => (
          <label
            key={choice.value}
            className="flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium has-[:checked]:border-primary has-[:checked]:bg-primary/5"
          >
            <input
              type="radio"
              name={name}
              value={choice.value}
              defaultChecked={choice.value === defaultValue}
              className="size-4 accent-primary"
            />
            <span lang={choice.value === "hi" ? "hi" : undefined}>{choice.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
