// TrajectoryPlayer: play, pause, step and scrub through the frames of a trajectory at a chosen
// speed; it only counts frames and says which one to show (the app shows it).
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace pw {

class TrajectoryPlayer : public QWidget {
    Q_OBJECT
public:
    explicit TrajectoryPlayer(QWidget* parent = nullptr);

    // Frames available (0 disables the controls); the current frame moves to the last one.
    void setFrameCount(int count);
    int frameCount() const { return count_; }
    int currentFrame() const { return current_; }
    bool playing() const;
    // Frames per second of playback.
    double speed() const;

public slots:
    void play();
    void pause();
    void stepForward();
    void stepBackward();
    void setCurrentFrame(int frame);

signals:
    // The frame to show (after a step, a scrub, or a playback tick).
    void frameChanged(int frame);

private:
    void tick();
    void updateControls();

    QToolButton* playButton_ = nullptr;
    QToolButton* backButton_ = nullptr;
    QToolButton* forwardButton_ = nullptr;
    QSlider* slider_ = nullptr;
    QComboBox* speedBox_ = nullptr;
    QLabel* label_ = nullptr;
    QTimer* timer_ = nullptr;
    int count_ = 0;
    int current_ = -1;
};

} // namespace pw
