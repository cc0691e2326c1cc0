type PanelHeaderProps = { id: string; title: string; description: string; count?: number };

export function PanelHeader({ id, title, description, count }: PanelHeaderProps) {
  return (
    <div className="grid gap-1">
      <h2 id={id} className="text-xl font-semibold tracking-tight">
        {title}
        {count !== undefined && (
          <span className="ml-2 text-base font-normal text-muted-foreground tabular-nums">({count})</span>
        )}
      </h2>
      <p className="text-sm text-muted-foreground">{description}</p>
    </div>
  );
}
