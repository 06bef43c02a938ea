// The verbs of asking for work, in their base form: an instruction opens with one ("Add rate
// limiting"), and so does a course of action one side proposes ("I'd split it into ...").

/** Verbs that open an instruction (base form). */
export const INSTRUCTION_VERBS = new Set(
  (
    'add build create write make implement fix update change remove delete drop rename move refactor rewrite replace convert port migrate ' +
    'deploy publish push submit release ship commit merge install configure set setup enable disable integrate connect optimize optimise ' +
    'improve speed reduce increase compare try test run check verify validate debug investigate profile benchmark measure analyze analyse ' +
    'review audit document explain describe summarize summarise list show find search look read open generate design plan draft schedule ' +
    'automate tune train fine-tune finetune evaluate export import upgrade downgrade bump clean format lint split extract combine support ' +
    'handle allow prevent ensure keep start continue finish complete prepare package containerize dockerize scale monitor cache parallelize ' +
    'paginate sort filter escape sanitize encrypt secure harden backup restore rollback revert undo retry resolve wire hook expose mock ' +
    'scaffold bootstrap init initialize initialise translate render draw plot visualize visualise deduplicate dedupe normalize normalise ' +
    'parse load save store fetch send post call ping cleanup clean-up address tidy simplify spawn launch stop kill close'
  ).split(' '),
);
