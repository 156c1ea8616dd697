import { Dialog as D } from "radix-ui";
import { X } from "lucide-react";

/** A panel that slides over the right edge on a phone (the palette, the OMR answer sheet). */
export function Drawer({
  open,
  onOpenChange,
  title,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <D.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-[min(22rem,92vw)] flex-col gap-3 overflow-y-auto border-l bg-card p-4 shadow-xl"
        >
          <div className="flex items-center justify-between gap-2">
            <D.Title className="text-base font-semibold">{title}</D.Title>
            <D.Close className="rounded-md p-1 text-muted-foreground hover:bg-muted" aria-label="Close">
              <X className="size-5" aria-hidden />
            </D.Close>
          </div>
          {children}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
