"""Interface strings: Chinese by default, English on request (`st.session_state["lang"] = "en"`)."""

from __future__ import annotations

from typing import Any

LANGS: tuple[str, ...] = ("zh", "en")

STRINGS: dict[str, tuple[str, str]] = {
    "page_score": ("算分", "Score"),
    "page_ledger": ("牌局", "Ledger"),
    "page_rules": ("规则", "Rules"),
    "page_annotate": ("标注", "Annotate"),
    "language": ("语言 / Language", "语言 / Language"),
    "data_dir": ("数据文件夹", "Data folder"),
    "data_dir_change": ("改用另一个数据文件夹", "Use another data folder"),
    "data_dir_env": ("现在由环境变量 {env} 指定，它优先于这里的设置。", "Set by ${env}, which wins over this setting."),
    "save": ("保存", "Save"),
    "table": ("牌桌", "Table"),
    "new_table": ("新牌桌", "New table"),
    "table_name": ("牌桌名称", "Table name"),
    "create": ("创建", "Create"),
    "photo": ("拍照或上传照片", "Take or upload a photo"),
    "camera": ("用相机拍照", "Use the camera"),
    "photo_guide": ("怎样摆牌拍照", "How to lay out and shoot a hand"),
    "no_model": (
        "识别模型还没有安装（models/ 里没有模型文件），请用下面的牌面手动输入。",
        "No detector model installed yet; enter the tiles by hand below.",
    ),
    "detect_failed": (
        "照片识别失败：{msg}。请用下面的牌面手动输入。",
        "Could not read the photo: {msg}. Enter tiles by hand.",
    ),
    "detected": ("识别出 {n} 张牌，{low} 张把握不大（红框），请核对。", "{n} tiles found, {low} uncertain (red)."),
    "hand": ("胡牌者的手牌（不含胡的那张）", "Winner's concealed tiles (without the winning tile)"),
    "clear": ("清空手牌", "Clear hand"),
    "tile_count": ("手牌 {n} 张 + 副露 {m} 组", "{n} concealed tiles + {m} melds"),
    "melds": ("副露与杠", "Melds and kongs"),
    "meld_seat": ("谁的", "Whose"),
    "meld_type": ("类型", "Type"),
    "meld_tiles": ("牌（如 345m 或 9999s）", "Tiles (e.g. 345m or 9999s)"),
    "meld_from": ("来自", "From"),
    "meld_add": ("加上这组", "Add meld"),
    "meld_from_hand": ("从手牌中取出", "Take the tiles out of the hand"),
    "meld_remove": ("去掉", "Remove"),
    "meld_winner": ("胡牌的人（照片）", "The winner (photo)"),
    "meld_from_photo": ("这组碰/杠是谁打出的牌", "Whose discard was claimed"),
    "win_tile": ("胡的那张牌", "Winning tile"),
    "indicator": ("翻精（指示牌）", "Indicator (翻精)"),
    "win": ("胡牌", "Win"),
    "winner": ("谁胡", "Winner"),
    "draw": ("流局（没人胡）", "Draw (no winner)"),
    "from": ("怎么胡的", "How"),
    "self_draw": ("自摸", "Self-draw"),
    "discard_by": ("{seat} 放炮", "discard by {seat}"),
    "after_kong": ("杠上花", "Won on a kong replacement (杠上花)"),
    "robbed_kong": ("抢杠", "Robbed a kong (抢杠)"),
    "special": ("天胡/地胡", "Heavenly/earthly hand"),
    "special_none": ("无", "none"),
    "tianhu": ("天胡", "天胡 (heavenly)"),
    "dihu": ("地胡", "地胡 (earthly)"),
    "others_jing": ("其他人的精", "Other players' 精"),
    "zheng": ("正精", "正精"),
    "fu": ("副精", "副精"),
    "follow": ("跟庄圈数", "跟庄 go-arounds"),
    "dealer": ("庄家", "Dealer"),
    "settle": ("结算", "Settle"),
    "refused": ("这手牌不能胡：{msg}", "This hand cannot win: {msg}"),
    "refused_round": ("这一局无法结算：{msg}", "This round cannot be settled: {msg}"),
    "false_win": ("按诈胡处理（{seat} 诈胡）", "Settle as a false win (诈胡) by {seat}"),
    "settlement": ("结算结果", "Settlement"),
    "total": ("合计", "Total"),
    "payments": ("谁付给谁", "Who pays whom"),
    "pays": ("{a} 付给 {b} {n} 子（{why}）", "{a} pays {b} {n} ({why})"),
    "explanation": ("说明", "Explanation"),
    "warnings": ("注意", "Warnings"),
    "confirm": ("确认记账", "Confirm into the ledger"),
    "confirmed": ("已记入第 {seq} 局。下面是新的一局。", "Recorded as round {seq}. A new round starts below."),
    "confirmed_toast": ("已记账，开始新的一局", "Recorded; a new round starts"),
    "choose": ("请选择", "Choose"),
    "question_done": ("知道了", "Done"),
    "rounds": ("各局", "Rounds"),
    "no_rounds": ("还没有记过局。", "No rounds yet."),
    "totals": ("总分", "Totals"),
    "chart": ("每人总分走势", "Each player's total over the rounds"),
    "round_no": ("局", "Round"),
    "result": ("结果", "Result"),
    "edit_round": ("修改某一局", "Edit a round"),
    "pick_round": ("选一局", "Pick a round"),
    "round_json": ("这一局的描述（JSON）", "Round description (JSON)"),
    "edit_in_score": ("回到算分页修改这一局", "Fix this round on the Score page"),
    "editing": ("正在修改第 {seq} 局：确认后替换原来的记录。", "Editing round {seq}: confirming replaces it."),
    "resettle_save": ("重新结算并保存", "Re-settle and save"),
    "delete_round": ("删除这一局", "Delete this round"),
    "undo_last": ("撤销最后一局", "Undo the last round"),
    "confirm_undo": ("确定撤销最后一局（第 {seq} 局）吗？撤销后不能恢复。", "Undo the last round (round {seq})? This cannot be undone."),
    "confirm_delete": ("确定删除第 {seq} 局吗？后面各局的累计会重算，删除后不能恢复。",
                       "Delete round {seq}? Later running totals are recomputed; this cannot be undone."),
    "confirm_yes": ("确定", "Yes"),
    "cancel": ("取消", "Cancel"),
    "saved": ("已保存。", "Saved."),
    "deleted": ("已删除。", "Deleted."),
    "deleted_round": ("已删除第 {seq} 局。", "Round {seq} deleted."),
    "restore_round": ("撤销删除", "Undo delete"),
    "restored_round": ("第 {seq} 局已放回。", "Round {seq} is back."),
    "export": ("导出", "Export"),
    "import": ("导入", "Import"),
    "import_file": ("选一个导出的 CSV 或 JSON 文件", "Choose an exported CSV or JSON file"),
    "imported": ("已导入为新牌桌。", "Imported as a new table."),
    "players": ("玩家", "Players"),
    "preset": ("规则（地方玩法）", "Preset"),
    "unit": ("一个子值多少分", "Value of one 子"),
    "options": ("选项", "Options"),
    "rules_saved": ("本桌规则已保存。", "Rules saved for this table."),
    "bad_json": ("JSON 格式不对：{msg}", "Bad JSON: {msg}"),
    "ann_dataset": ("数据集", "Dataset"),
    "ann_new_dataset": ("新建数据集（名称只用字母、数字、_ . -）", "New dataset (letters, digits, _ . -)"),
    "ann_upload": ("上传一张或多张照片", "Upload one or more photos"),
    "ann_added": ("已加入 {n} 张照片。", "{n} photos added."),
    "ann_duplicate": ("{name} 已经在数据集里了。", "{name} is already in the dataset."),
    "ann_no_model": ("没有识别模型（models/tiles.onnx），照片从空白开始标注。", "No detector model (models/tiles.onnx): photos start with no boxes."),
    "ann_prelabelled": ("{name}：模型预先画了 {n} 个框，请核对。", "{name}: the model pre-drew {n} boxes; please check them."),
    "ann_empty": ("这个数据集还没有照片，先上传。", "This dataset has no photos yet; upload some."),
    "ann_photo": ("照片", "Photo"),
    "ann_progress": ("已核对 {r} / {n} 张", "{r} of {n} reviewed"),
    "ann_finetune_hint": (
        "识别认不准你这副牌？标好几十张它的照片后，在电脑上运行 `jingsuan finetune {name} --classifier-only`"
        "（几分钟），识别就会学这副牌；只有在留出的照片上更好才会换上（docs/annotate.md）。",
        "Your own tile set read badly? With a few dozen of its photos labelled, run `jingsuan finetune {name} "
        "--classifier-only` on the laptop (a few minutes) to teach it that set; it is adopted only if it reads "
        "the held-back photos better (docs/annotate.md).",
    ),
    "ann_counts": ("每类牌的框数", "Boxes per class"),
    "ann_class": ("牌", "Tile"),
    "ann_count": ("数量", "Count"),
    "ann_new_cls": ("新画的框是", "New boxes are"),
    "ann_mode": ("模式", "Mode"),
    "ann_mode_rect": ("画框", "Draw"),
    "ann_mode_move": ("移动", "Move"),
    "ann_canvas_hint_draw": (
        "在照片上拖动画一个框；要移动框或改大小，先选上面的“移动”。",
        "Drag on the photo to draw a box; to move or resize boxes, pick 'Move' above first.",
    ),
    "ann_canvas_hint_move": (
        "拖动框来移动它，拖它的角来改大小；动过的框在下面被选中，可以改它是哪张牌。",
        "Drag a box to move it, drag a corner to resize it; the box you moved is picked below to change its tile.",
    ),
    "ann_no_canvas": ("画框工具不能用（{msg}），可以用下面的表格和手动添加。", "The drawing canvas is unavailable ({msg}); use the table and manual add below."),
    "ann_boxes": ("框（{n} 个）", "Boxes ({n})"),
    "ann_pick_box": ("选一个框", "Pick a box"),
    "ann_box_cls": ("这个框是", "This box is"),
    "ann_delete_box": ("删除这个框", "Delete this box"),
    "ann_add_box": ("手动添加一个框（像素）", "Add a box by hand (pixels)"),
    "ann_add": ("添加", "Add"),
    "ann_save": ("保存标注", "Save labels"),
    "ann_mark_reviewed": ("标为已核对", "Mark reviewed"),
    "ann_unmark_reviewed": ("取消已核对", "Unmark reviewed"),
    "ann_is_reviewed": ("✓ 这张已核对（标注无误）", "✓ Reviewed (labels are right)"),
    "ann_not_reviewed": ("这张还没核对", "Not reviewed yet"),
    "ann_saved": ("已保存 {n} 个框。", "Saved {n} boxes."),
    "ann_saved_on_switch": ("上一张照片的 {n} 个框已保存（没改核对标记）。", "The last photo's {n} boxes were saved (review mark unchanged)."),
    "ann_unsaved": ("有未保存的修改。", "There are unsaved changes."),
    "ann_error": ("保存失败：{msg}", "Could not save: {msg}"),
    "ann_check": ("查漏标", "Find unboxed tiles"),
    "ann_check_help": (
        "用模型找这张照片里还没有框的牌（扣着的牌也算），加为框，请核对后保存。漏标的牌会被训练学成背景。",
        "Let the model look for tiles in this photo that have no box yet (face-down ones too) and add them; check and save. "
        "A tile left unboxed is learnt as background.",
    ),
    "ann_check_added": ("加了 {n} 个模型看到但没有框的牌，请核对它们的牌面后保存。", "Added {n} tiles the model sees but no box covered; check their faces, then save."),
    "ann_check_none": ("模型没有发现漏标的牌。", "The model found no unboxed tile."),
    "ann_check_failed": ("没法查漏标：{msg}", "Could not look for unboxed tiles: {msg}"),
    "ann_audit": ("查错标", "Find wrong labels"),
    "ann_audit_help": (
        "用模型认一遍每个框的牌面，列出它很有把握认成别的牌的框（不会自动改）。标错的牌会把模型教错。",
        "Let the model read every box and list those it surely reads as another tile (nothing is changed). "
        "A wrong label teaches the reader the wrong tile.",
    ),
    "ann_audit_found": ("{n} 个框的牌面可能标错了，请对照照片核对（模型也会认错，不要照它直接改）：{items}",
                        "{n} boxes may be labelled wrong; check each against the photo (the model errs too): {items}"),
    "ann_audit_item": ("#{i} 标的是{label}，模型有 {p}% 把握是{reading}", "#{i} labelled {label}, the model reads {reading} ({p}%)"),
    "ann_audit_none": ("模型没有发现可疑的标注。", "The model doubts no label."),
    "ann_audit_failed": ("没法查错标：{msg}", "Could not check the labels: {msg}"),
    "save_example": ("保存为标注样本", "Save as labelled example"),
    "example_added": ("照片和识别结果已存为标注样本（数据集 {name}，{stem}）。", "Saved as a labelled example ({name}, {stem})."),
    "example_updated": ("已更新这张照片的标注样本（{stem}）。", "Updated this photo's labelled example ({stem})."),
    "example_kept": ("这张照片已经核对过，没有改动（{stem}）。", "This photo was already reviewed; left as is ({stem})."),
}


def t(key: str, lang: str = "zh", *, strings: dict[str, tuple[str, str]] = STRINGS, **kwargs: Any) -> str:
    """The interface string `key` of `strings` (the app's, or a widget's own table) in `lang` (zh default),
    formatted with `kwargs`."""
    zh, en = strings.get(key, (key, key))
    text = en if lang == "en" else zh
    return text.format(**kwargs) if kwargs else text


#: The file uploader's own words, which Streamlit writes in English whatever the page's language.
UPLOADER_ZH = {"button": "选择文件", "limit": "每个文件最多 {mb} MB"}


def uploader_style(lang: str, limit_mb: int) -> str:
    """A <style> that puts the file uploaders' button and size limit in Chinese (Streamlit has no locale:
    the English words are shrunk to nothing and the Chinese drawn after them); none in English."""
    if lang == "en":
        return ""
    zone = '[data-testid="stFileUploaderDropzone"]'
    limit = UPLOADER_ZH["limit"].format(mb=limit_mb)
    return (
        "<style>"
        f'{zone} button [data-testid="stMarkdownContainer"] p,'
        f' {zone} [data-testid="stFileUploaderDropzoneInstructions"] span {{font-size: 0;}}'
        f' {zone} button [data-testid="stMarkdownContainer"] p::after {{content: "{UPLOADER_ZH["button"]}"; font-size: 14px;}}'
        f' {zone} [data-testid="stFileUploaderDropzoneInstructions"] span::after {{content: "{limit}"; font-size: 14px;}}'
        "</style>"
    )
