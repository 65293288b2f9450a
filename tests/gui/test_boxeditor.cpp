// Qt Test for the search box editor shared by the workflows (bundled 1stp example): the fields,
// the document and the box drawn in the 3D view stay equal whichever way the box is set: read
// from box.txt, typed in the fields, or dragged by a face handle in the view (issue 14, item 2).
#include "BoxEditor.h"
#include "ExampleWindow.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "SettingsPanel.h"
#include "StartupFiles.h"

#include <QAbstractButton>
#include <QAction>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QtTest>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <cmath>

using namespace pw;

namespace {

SearchBox searchBox(const DrawBox& b) {
    return {Vec3(b.center[0], b.center[1], b.center[2]), Vec3(b.size[0], b.size[1], b.size[2])};
}

// Equal within the fields' precision: centres to 3 decimals, sizes to 2.
bool sameAsFields(const SearchBox& box, const SearchBox& fields, QString* why) {
    for (int k = 0; k < 3; ++k)
        if (std::abs(box.center[k] - fields.center[k]) > 0.0005 + 1e-9 ||
            std::abs(box.size[k] - fields.size[k]) > 0.005 + 1e-9) {
            *why = QStringLiteral("axis %1: centre %2 vs %3, size %4 vs %5")
                       .arg(k)
                       .arg(box.center[k])
                       .arg(fields.center[k])
                       .arg(box.size[k])
                       .arg(fields.size[k]);
            return false;
        }
    return true;
}

bool sameBox(const SearchBox& a, const SearchBox& b) {
    for (int k = 0; k < 3; ++k)
        if (std::abs(a.center[k] - b.center[k]) > 1e-6 || std::abs(a.size[k] - b.size[k]) > 1e-6)
            return false;
    return true;
}

} // namespace

class TestBoxEditor : public QObject {
    Q_OBJECT

private slots:
    void fieldsShowTheDocumentsBox();
    void typedBoxIsDrawn();
    void boxDraggedInTheViewEqualsTheFields();
};

void TestBoxEditor::fieldsShowTheDocumentsBox() {
    MainWindow w;
    QVERIFY(openExample(w));
    QCOMPARE(w.document().boxSource(), BoxSource::File); // box.txt beside the receptor
    BoxEditor* editor = w.settingsPanel()->boxEditor();
    const SearchBox box = *w.document().box();
    QString why;
    QVERIFY2(sameAsFields(box, editor->fieldsBox(), &why), qPrintable(why));
    const std::optional<DrawBox> drawn = w.moleculeView()->shownBox();
    QVERIFY(drawn);
    QVERIFY(sameBox(searchBox(*drawn), box));
}

void TestBoxEditor::typedBoxIsDrawn() {
    MainWindow w;
    QVERIFY(openExample(w));
    BoxEditor* editor = w.settingsPanel()->boxEditor();
    const SearchBox before = *w.document().box();
    const double typed[6] = {before.center[0] + 1.5, before.center[1] - 0.75, before.center[2],
                             before.size[0] + 2,     before.size[1],          before.size[2] - 1};
    const char* names[6] = {"boxCenterX", "boxCenterY", "boxCenterZ",
                            "boxSizeX",   "boxSizeY",   "boxSizeZ"};
    for (int i = 0; i < 6; ++i) {
        auto* field = editor->findChild<QDoubleSpinBox*>(QString::fromLatin1(names[i]));
        QVERIFY2(field, names[i]);
        field->setValue(typed[i]);
    }
    auto* apply = editor->findChild<QPushButton*>(QStringLiteral("applyTypedBox"));
    QVERIFY(apply);
    QTest::mouseClick(apply, Qt::LeftButton);
    QCOMPARE(w.document().boxSource(), BoxSource::Typed);
    const SearchBox& box = *w.document().box();
    QVERIFY(sameBox(box, editor->fieldsBox()));
    QVERIFY(std::abs(box.center[0] - typed[0]) < 1e-3 && std::abs(box.size[2] - typed[5]) < 1e-2);
    QVERIFY(sameBox(searchBox(*w.moleculeView()->shownBox()), box));
    QVERIFY(settle(w)); // the grid follows the typed box
}

void TestBoxEditor::boxDraggedInTheViewEqualsTheFields() {
    MainWindow w;
    QVERIFY(openExample(w));
    MoleculeView* view = w.moleculeView();
    BoxEditor* editor = w.settingsPanel()->boxEditor();
    // The editor's toggle turns the view's handles on (the same action as View > Edit box).
    auto* toggle = editor->findChild<QAbstractButton*>(QStringLiteral("dragBoxButton"));
    QVERIFY(toggle && toggle->isVisible());
    QTest::mouseClick(toggle, Qt::LeftButton);
    QVERIFY(view->boxEditable());
    QVERIFY(w.editBoxAction()->isChecked());
    QVERIFY(drawnAgain(*view));

    const SearchBox before = *w.document().box();
    const FaceDrag drag = edgeOnFace(*view, before);
    const int axis = drag.axis;
    QVERIFY(view->rect().contains(drag.handle));
    pressAndDrag(view, drag);
    // While the face is dragged the view's box follows it; the document waits for the release.
    QVERIFY(view->shownBox()->size[axis] > before.size[axis] + 0.5);
    QVERIFY(sameBox(*w.document().box(), before));
    release(view, drag);

    const SearchBox& after = *w.document().box();
    QCOMPARE(w.document().boxSource(), BoxSource::Typed);
    QVERIFY2(after.size[axis] > before.size[axis] + 1.0,
             qPrintable(QStringLiteral("%1 -> %2").arg(before.size[axis]).arg(after.size[axis])));
    // The box in the view, in the document and in the fields is one box.
    const SearchBox drawn = searchBox(*view->shownBox());
    QVERIFY(sameBox(drawn, after));
    QString why;
    QVERIFY2(sameAsFields(drawn, editor->fieldsBox(), &why), qPrintable(why));
    QVERIFY(settle(w)); // the grid follows the dragged box
}

QTEST_MAIN(TestBoxEditor)
#include "test_boxeditor.moc"
